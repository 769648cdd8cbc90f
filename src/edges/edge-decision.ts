import { sep } from "node:path";
import { globalSingleton } from "../base/global-state.js";
import { isIP } from "node:net";
import { hostAllowed, type HostRule, inHostsFile, isLoopback, isLoopbackAddress, urlAllowed } from "../pipeline/hosts.js";
import { isOwnNetwork } from "../base/own-network.js";
import { currentScope } from "../lifecycle/scope.js";
import { type EdgePolicy, openEdgeGuards } from "../pipeline/edge-policy.js";
import { llmApiFix } from "../wire/provider-hosts.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { commandName, describeTarget, hermeticRefusal, hostEntry } from "./edge-messages.js";
import { hermeticIsOn, runAllowHosts } from "./hermetic.js";
import { listensAtPath, listensOn } from "./own-servers.js";
import { requestBelow } from "./requests-below.js";
import { UNKNOWN_PROGRAM } from "./shell-programs.js";

/** What is leaving the process, below every catcher. */
export type EdgeTarget =
  | {
      readonly channel: "tcp" | "udp";
      /** The name the socket was given, for the message (the address itself when it had none). */
      readonly host: string;
      /** The address the socket actually connects or sends to, after any `lookup`: what decides. */
      readonly address: string;
      readonly port: number;
    }
  | {
      readonly channel: "dns";
      readonly host: string;
      /** The servers a resolver's channel sends the query to (`[address, port]`); none for the system's lookup. */
      readonly servers?: readonly (readonly [string, number])[];
      /** The system's reverse lookup of an address (`lookupService`): a PTR query unless the address is loopback. */
      readonly reverse?: boolean;
    }
  | { readonly channel: "http"; readonly method: string; readonly url: string; readonly at?: (() => string | undefined) | undefined }
  | { readonly channel: "socket"; readonly path: string }
  | { readonly channel: "worker" }
  | { readonly channel: "process"; readonly command: string; readonly programs?: readonly string[] };

// Process-wide: the guards are installed once per process, by whichever copy of tooltrace came first.
const state = globalSingleton("edgeOwnProcesses", () => ({ allowingOwnProcesses: 0 }));

/** Runs `start` with process starts allowed: tooltrace's own (a CLI agent the adapter runs). */
export function startingOwnProcess<T>(start: () => T): T {
  state.allowingOwnProcesses += 1;
  try {
    return start();
  } finally {
    state.allowingOwnProcesses -= 1;
  }
}

/**
 * Whether what is leaving may go. A strict session refuses everything past its catchers during its turns
 * (and, for the network, at any moment it is open: a timer or a queue of the agent's) unless it allows it.
 * Otherwise the run is hermetic (the plugin's default): the network beyond loopback is refused unless the
 * config or the session allows the host, or the session calls the real model (`upstream`) or records. A
 * refusal fails the test (a violation of the session whose turn made it, or a problem of the running test);
 * its message is returned, for the error the caller gets.
 */
export function refuseAtEdge(target: EdgeTarget): string | undefined {
  if (target.channel === "process" && state.allowingOwnProcesses > 0) return undefined;
  if (isOwnNetwork()) return undefined;
  const context = currentTurnContext();
  if (context !== undefined) {
    const { edges, network } = context.pipeline;
    if (edges !== undefined) {
      if (allowed(edges, target)) return undefined;
      const shown = shownAs(target);
      const message = `strict mode: ${describeTarget(shown)} during a turn of ${context.pipeline.name}, past every catcher of tooltrace's, so it was refused. ${fixFor(shown)}`;
      context.pipeline.report(message, context.turn);
      return message;
    }
    if (!leavesTheMachine(target, network.allowHosts) || network.live) return undefined;
    const message = hermeticRefusal(shownAs(target));
    context.pipeline.report(message, context.turn);
    return message;
  }
  // Outside every turn, only the network: the test's own setup may start processes.
  if (target.channel === "worker" || target.channel === "process") return undefined;
  const refusing = [...openEdgeGuards()].filter((guard) => !allowed(guard.edges, target));
  if (refusing.length > 0) {
    const names = refusing.map((guard) => guard.name).join(", ");
    const shown = shownAs(target);
    const message = `strict mode: ${describeTarget(shown)} outside any turn while ${names} ${refusing.length === 1 ? "was" : "were"} open (a timer, an interval, a queue or a stored async context of the agent's), so it was refused. ${fixFor(shown)}`;
    for (const guard of refusing) guard.refuseOutsideTurn(message);
    return message;
  }
  if (!leavesTheMachine(target, [])) return undefined;
  const message = hermeticRefusal(shownAs(target));
  currentScope()?.refused(message);
  return message;
}

/** The programs a process target runs: a shell's every one, or the program itself. */
function programsOfTarget(target: { readonly command: string; readonly programs?: readonly string[] }): readonly string[] {
  return target.programs ?? [commandName(target.command)];
}

/** A DNS query or a connection made for a request `fetch` handed below its guard is shown as that request. */
function shownAs(target: EdgeTarget): EdgeTarget {
  if (target.channel !== "dns" && target.channel !== "tcp") return target;
  return requestBelow(target.host) ?? target;
}

/** For the hermetic guard: network traffic beyond loopback that neither the run nor the session allows. */
function leavesTheMachine(target: EdgeTarget, sessionHosts: readonly HostRule[]): boolean {
  if (!hermeticIsOn()) return false;
  const rules = [...runAllowHosts(), ...sessionHosts];
  switch (target.channel) {
    case "tcp":
    case "udp":
      return !(isLoopbackAddress(target.address) || socketAllowed(rules, target));
    case "dns":
      return !(dnsStaysHere(target) || hostAllowed(rules, target.host, undefined));
    case "http":
      return !(isLoopbackUrl(target.url) || urlAllowed(rules, target.url));
    default:
      return false;
  }
}

/**
 * Whether `allowHosts` lets a socket out, by the address it reaches or by its name; a loopback name
 * (`localhost`) counts only where it reached loopback, so a `lookup` that sends it elsewhere is not let out.
 */
function socketAllowed(
  rules: readonly HostRule[],
  target: { readonly host: string; readonly address: string; readonly port: number },
): boolean {
  const nameCounts = !isLoopback(target.host) || isLoopbackAddress(target.address);
  return hostAllowed(rules, target.address, target.port) || (nameCounts && hostAllowed(rules, target.host, target.port));
}

/**
 * Whether a DNS query stays on this machine, decided on where it is sent: a resolver's channel, on its servers
 * (every one on loopback); the system's lookup, on the name (an address, or a name the hosts file holds,
 * never reach a DNS server). The name a query asks for never decides: `<data>.localhost` sent to a server
 * beyond loopback carries the data out.
 */
function dnsStaysHere(target: Extract<EdgeTarget, { channel: "dns" }>): boolean {
  if (target.servers !== undefined) return target.servers.length > 0 && target.servers.every(([address]) => isLoopbackAddress(address));
  if (target.reverse === true) return isLoopbackAddress(target.host);
  return isIP(target.host) !== 0 || inHostsFile(target.host);
}

function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopback(new URL(url).hostname);
  } catch {
    return false;
  }
}

function allowed(edges: EdgePolicy, target: EdgeTarget): boolean {
  switch (target.channel) {
    case "tcp":
    case "udp":
      return listensOn(target.address, target.port) || socketAllowed(edges.allowHosts, target);
    case "dns":
      return (
        hostAllowed(edges.allowHosts, target.host, undefined) ||
        (target.servers === undefined
          ? dnsStaysHere(target)
          : target.servers.length > 0 && target.servers.every(([address, port]) => listensOn(address, port)))
      );
    case "http":
      return urlAllowed(edges.allowHosts, target.url);
    case "socket":
      return (
        listensAtPath(target.path) ||
        edges.allowSockets.some((allowed) => target.path === allowed || (allowed.endsWith(sep) && target.path.startsWith(allowed)))
      );
    case "worker":
      return edges.allowProcesses === true;
    case "process":
      return (
        edges.allowProcesses === true ||
        (Array.isArray(edges.allowProcesses) &&
          programsOfTarget(target).every((name) => (edges.allowProcesses as readonly string[]).includes(name)))
      );
  }
}

function fixFor(target: EdgeTarget): string {
  if (target.channel === "worker") return "Fix: run that work in the test's thread, or allow it: createSession({ allowProcesses: true }).";
  if (target.channel === "socket")
    return `Fix: stub the tool that uses it, or allow it: createSession({ allowSockets: [${JSON.stringify(target.path)}] }).`;
  if (target.channel === "process")
    return programsOfTarget(target).includes(UNKNOWN_PROGRAM)
      ? "Fix: stub the tool that starts it, or allow any process: createSession({ allowProcesses: true })."
      : `Fix: stub the tool that starts it, or allow ${target.programs === undefined ? "it" : "every program it runs"}: createSession({ allowProcesses: ${JSON.stringify(programsOfTarget(target))} }).`;
  const llm = target.channel === "http" || target.channel === "tcp" ? llmApiFix(hostEntry(target)) : undefined;
  if (llm !== undefined) return `Fix: ${llm}`;
  return `Fix: answer it in the test (a stub rule for the tool that makes it, or an HTTP mock for a \`fetch\` request), or allow the host: createSession({ allowHosts: [${JSON.stringify(hostEntry(target))}] }).`;
}
