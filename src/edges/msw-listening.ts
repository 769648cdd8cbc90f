import { globalSingleton, holdCount } from "../base/global-state.js";

/** tooltrace's own MSW servers that have closed and whose interception ends on the next turn of the event loop. */
const ending = globalSingleton("mswEnding", () => ({ servers: 0 }));

/** msw 2 sets `globalThis[Symbol.for("fetch-interceptor")]` while listening; msw 3 marks its interceptors ACTIVE in a global registry. */
export function mswIsListening(): boolean {
  const global = globalThis as Record<symbol | string, unknown>;
  if (global[Symbol.for("fetch-interceptor")] !== undefined) return true;
  return mswInterceptsSockets();
}

/**
 * msw 3 answers at the socket (it patches `net.Socket.prototype.connect`), under Node's fetch dispatcher: a
 * request it does not answer opens a real socket, where the edge guards refuse it. A server that has closed
 * but still intercepts (see {@link mswEnds}) does not count: requests are handled as once it has ended.
 */
export function mswInterceptsSockets(): boolean {
  if (ending.servers > 0) return false;
  const registry = (globalThis as Record<string, unknown>).__MSW_INTERCEPTORS_REGISTRY as Map<symbol, { readyState?: string }> | undefined;
  return registry?.get(Symbol.for("node-http-request-source"))?.readyState === "ACTIVE";
}

/**
 * Marks a closed server whose interception has not ended yet: only what clients' pools do on their own in that
 * time (a connection made again for a request that just ended) still meets it. Returns the mark's removal.
 */
export function mswEnds(): () => void {
  return holdCount(ending, "servers");
}
