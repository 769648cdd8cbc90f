/** msw 2 sets `globalThis[Symbol.for("fetch-interceptor")]` while listening; msw 3 marks its interceptors ACTIVE in a global registry. */
export function mswIsListening(): boolean {
  const global = globalThis as Record<symbol | string, unknown>;
  if (global[Symbol.for("fetch-interceptor")] !== undefined) return true;
  const registry = global.__MSW_INTERCEPTORS_REGISTRY as Map<symbol, { readyState?: string }> | undefined;
  return registry?.get(Symbol.for("node-http-request-source"))?.readyState === "ACTIVE";
}
