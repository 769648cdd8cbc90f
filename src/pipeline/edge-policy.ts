import { globalSingleton } from "../base/global-state.js";
import type { HostRule } from "./hosts.js";

/** What a strict session lets out past every catcher: hosts, and processes started during its turns. */
export interface EdgePolicy {
  readonly allowHosts: readonly HostRule[];
  /** `true`: any worker thread or child process; a list: child processes by command name. */
  readonly allowProcesses: boolean | readonly string[];
  /** Unix-domain sockets by absolute path; one ending in the path separator allows every socket under it. */
  readonly allowSockets: readonly string[];
}

/** What any session lets out while the run is hermetic (see `refuseAtEdge`). */
export interface NetworkPolicy {
  /** The session's `allowHosts` (and the hosts its agent reaches itself). */
  readonly allowHosts: readonly HostRule[];
  /** The session calls the real model (`upstream`) or records a cassette: its turns may reach the network. */
  readonly live: boolean;
}

/** A strict session that guards the process's edges while it is open. */
export interface EdgeGuard {
  readonly name: string;
  readonly edges: EdgePolicy;
  /** Records a refusal made outside any of its turns (a timer or queue of the agent's), and returns the message. */
  refuseOutsideTurn(what: string): string;
}

const open = globalSingleton("edgeGuards", () => new Set<EdgeGuard>());

/** Registers an open strict session; the returned function unregisters it when it closes. */
export function guardEdges(guard: EdgeGuard): () => void {
  open.add(guard);
  return () => {
    open.delete(guard);
  };
}

/** The strict sessions open now, for what happens outside every turn. */
export function openEdgeGuards(): ReadonlySet<EdgeGuard> {
  return open;
}
