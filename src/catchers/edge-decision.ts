import { globalSingleton } from "../base/global-state.js";
import { hostAllowed, isLoopback } from "../base/hosts.js";
import { type EdgePolicy, openEdgeGuards } from "../pipeline/edge-policy.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { listensOn } from "./own-servers.js";

/** What is leaving the process, below every catcher. */
export type EdgeTarget =
  | { readonly channel: "tcp" | "udp"; readonly host: string; readonly port: number; readonly address?: string }
  | { readonly channel: "dns"; readonly host: string }
  | { readonly channel: "worker" }
  | { readonly channel: "process"; readonly command: string };

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
 * Whether what is leaving may go: refused during a turn of a strict session (and, for the network, at any
 * moment a strict session is open, outside every turn: a timer or a queue of the agent's) unless the session
 * allows it. A refusal is recorded as a violation of the session; its message is returned, for the error
 * the caller gets.
 */
export function refuseAtEdge(target: EdgeTarget): string | undefined {
  if (target.channel === "process" && state.allowingOwnProcesses > 0) return undefined;
  const context = currentTurnContext();
  if (context !== undefined) {
    const { edges } = context.pipeline;
    if (edges === undefined || allowed(edges, target)) return undefined;
    const message = `strict mode: ${describe(target)} during a turn of ${context.pipeline.name}, past every catcher of tooltrace's, so it was refused. ${fixFor(target)}`;
    context.pipeline.report(message, context.turn);
    return message;
  }
  // Outside every turn, only the network: the test's own setup may start processes.
  if (target.channel === "worker" || target.channel === "process") return undefined;
  const refusing = [...openEdgeGuards()].filter((guard) => !allowed(guard.edges, target));
  if (refusing.length === 0) return undefined;
  const names = refusing.map((guard) => guard.name).join(", ");
  const message = `strict mode: ${describe(target)} outside any turn while ${names} ${refusing.length === 1 ? "was" : "were"} open (a timer, an interval, a queue or a stored async context of the agent's), so it was refused. ${fixFor(target)}`;
  for (const guard of refusing) guard.refuseOutsideTurn(message);
  return message;
}

function allowed(edges: EdgePolicy, target: EdgeTarget): boolean {
  switch (target.channel) {
    case "tcp":
    case "udp":
      return (
        ((isLoopback(target.host) || (target.address !== undefined && isLoopback(target.address))) && listensOn(target.port)) ||
        hostAllowed(edges.allowHosts, target.host, target.port) ||
        (target.address !== undefined && hostAllowed(edges.allowHosts, target.address, target.port))
      );
    case "dns":
      return isLoopback(target.host) || hostAllowed(edges.allowHosts, target.host, undefined);
    case "worker":
      return edges.allowProcesses === true;
    case "process":
      return (
        edges.allowProcesses === true || (Array.isArray(edges.allowProcesses) && edges.allowProcesses.includes(commandName(target.command)))
      );
  }
}

function describe(target: EdgeTarget): string {
  switch (target.channel) {
    case "tcp":
      return `a TCP connection to ${hostPort(target.host, target.port)} was opened`;
    case "udp":
      return `a UDP datagram to ${hostPort(target.host, target.port)} was sent`;
    case "dns":
      return `a DNS query for ${JSON.stringify(target.host.slice(0, 100))} was made`;
    case "worker":
      return "a worker thread was started (tooltrace cannot see what it sends)";
    case "process":
      return `the child process \`${commandName(target.command)}\` was started (tooltrace cannot see what it sends)`;
  }
}

function fixFor(target: EdgeTarget): string {
  if (target.channel === "worker") return "Fix: run that work in the test's thread, or allow it: createSession({ allowProcesses: true }).";
  if (target.channel === "process")
    return `Fix: stub the tool that starts it, or allow it: createSession({ allowProcesses: [${JSON.stringify(commandName(target.command))}] }).`;
  const host = target.channel === "dns" ? target.host : hostPort(target.host, target.port);
  return `Fix: send it through fetch or node:http while tooltrace's MSW server listens (mock it there), or allow the host: createSession({ allowHosts: [${JSON.stringify(host.slice(0, 100))}] }).`;
}

function hostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** `/usr/bin/curl` → `curl`, the name `allowProcesses` lists. */
function commandName(command: string): string {
  return command.split(/[\\/]/).pop() ?? command;
}
