import { sep } from "node:path";
import { globalSingleton } from "../base/global-state.js";
import { hostAllowed, type HostRule, isLoopback, urlAllowed } from "../pipeline/hosts.js";
import { isOwnNetwork } from "../base/own-network.js";
import { currentScope } from "../lifecycle/scope.js";
import { type EdgePolicy, openEdgeGuards } from "../pipeline/edge-policy.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { commandName, describeTarget, hermeticRefusal, hostEntry } from "./edge-messages.js";
import { hermeticIsOn, runAllowHosts } from "./hermetic.js";
import { listensAtPath, listensOn } from "./own-servers.js";
import { requestBelow } from "./requests-below.js";
import { UNKNOWN_PROGRAM } from "./shell-programs.js";

/** What is leaving the process, below every catcher. */
export type EdgeTarget =
  | { readonly channel: "tcp" | "udp"; readonly host: string; readonly port: number; readonly address?: string }
  | { readonly channel: "dns"; readonly host: string; readonly servers?: readonly string[] }
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

/** For the hermetic guard: network traffic to a host beyond loopback that neither the run nor the session allows. */
function leavesTheMachine(target: EdgeTarget, sessionHosts: readonly HostRule[]): boolean {
  if (!hermeticIsOn()) return false;
  switch (target.channel) {
    case "tcp":
    case "udp":
      return !(
        isLoopback(target.host) ||
        (target.address !== undefined && isLoopback(target.address)) ||
        hostAllowed(runAllowHosts(), target.host, target.port) ||
        hostAllowed(sessionHosts, target.host, target.port)
      );
    case "dns":
      return !(
        isLoopback(target.host) ||
        (target.servers !== undefined && target.servers.length > 0 && target.servers.every(isLoopbackServer)) ||
        hostAllowed(runAllowHosts(), target.host, undefined) ||
        hostAllowed(sessionHosts, target.host, undefined)
      );
    case "http":
      return !(isLoopbackUrl(target.url) || urlAllowed(runAllowHosts(), target.url) || urlAllowed(sessionHosts, target.url));
    default:
      return false;
  }
}

/** A resolver's server as `getServers()` lists it: `127.0.0.1`, `127.0.0.1:5353`, `[::1]:53`. */
function isLoopbackServer(server: string): boolean {
  const host = server.startsWith("[") ? server.slice(1, server.indexOf("]")) : server.includes(".") ? server.replace(/:\d+$/, "") : server;
  return isLoopback(host);
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
      return (
        listensOn(target.address ?? target.host, target.port) ||
        hostAllowed(edges.allowHosts, target.host, target.port) ||
        (target.address !== undefined && hostAllowed(edges.allowHosts, target.address, target.port))
      );
    case "dns":
      return isLoopback(target.host) || hostAllowed(edges.allowHosts, target.host, undefined);
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
  return `Fix: answer it in the test (a stub rule for the tool that makes it, or an HTTP mock for a \`fetch\` request), or allow the host: createSession({ allowHosts: [${JSON.stringify(hostEntry(target))}] }).`;
}
