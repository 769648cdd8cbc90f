import { globalSingleton } from "../base/global-state.js";

const state = globalSingleton("httpCatcher", () => ({ added: false, own: 0, joined: 0 }));

/**
 * True while an HTTP catcher can see this process's requests: tooltrace's own MSW server is listening, a
 * server tooltrace joined is listening, or `httpCatcher()` was added to a server of the user's (whose
 * lifetime tooltrace cannot see). Tool calls then carry their `seq` into the HTTP they make, and strict
 * sessions may be created.
 */
export function httpIsCaught(): boolean {
  return state.added || state.own > 0 || (state.joined > 0 && mswIsListening());
}

/** Called when `httpCatcher()` is handed to a server tooltrace does not own. */
export function markHttpCaught(): void {
  state.added = true;
}

/** Called when tooltrace's own server starts listening, or joins a user's; the returned function when it closes. */
export function holdHttpCaught(kind: "own" | "joined"): () => void {
  state[kind] += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    state[kind] -= 1;
  };
}

/** msw 2 sets `globalThis[Symbol.for("fetch-interceptor")]` while listening; msw 3 marks its interceptors ACTIVE in a global registry. */
export function mswIsListening(): boolean {
  const global = globalThis as Record<symbol | string, unknown>;
  if (global[Symbol.for("fetch-interceptor")] !== undefined) return true;
  const registry = global.__MSW_INTERCEPTORS_REGISTRY as Map<symbol, { readyState?: string }> | undefined;
  return registry?.get(Symbol.for("node-http-request-source"))?.readyState === "ACTIVE";
}
