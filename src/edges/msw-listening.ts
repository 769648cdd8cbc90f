/** msw 2 sets `globalThis[Symbol.for("fetch-interceptor")]` while listening; msw 3 marks its interceptors ACTIVE in a global registry. */
export function mswIsListening(): boolean {
  const global = globalThis as Record<symbol | string, unknown>;
  if (global[Symbol.for("fetch-interceptor")] !== undefined) return true;
  return mswInterceptsSockets();
}

/**
 * msw 3 answers at the socket (it patches `net.Socket.prototype.connect`), under Node's fetch dispatcher: a
 * request it does not answer opens a real socket, where the edge guards refuse it.
 */
export function mswInterceptsSockets(): boolean {
  const registry = (globalThis as Record<string, unknown>).__MSW_INTERCEPTORS_REGISTRY as Map<symbol, { readyState?: string }> | undefined;
  return registry?.get(Symbol.for("node-http-request-source"))?.readyState === "ACTIVE";
}
