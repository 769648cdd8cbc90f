import { globalSingleton } from "../global-state.js";
import { currentTurnContext } from "./turn-context.js";

/** Node's built-in `fetch` sends every request through the dispatcher stored under this key. */
const DISPATCHER = Symbol.for("undici.globalDispatcher.1");

interface Dispatcher {
  dispatch(options: { origin?: unknown; path?: string; method?: string }, handler: DispatchHandler): boolean;
}
interface DispatchHandler {
  onError?(error: Error): void;
  onResponseError?(controller: unknown, error: Error): void;
}

const state = globalSingleton("networkGuard", () => ({ installs: 0, original: undefined as Dispatcher | undefined }));

/**
 * Guards the layer under `fetch` while tooltrace's MSW server runs. MSW patches `globalThis.fetch`; a client
 * that kept the `fetch` it found before (an SDK client created at import time, before the server started)
 * skips the patch and would reach the network unseen. Every request reaches Node's dispatcher, though: one
 * made during a turn whose session refuses what it cannot see (strict mode) is refused there and reported.
 * Counted: the guard goes when the last server that installed it closes. Only with msw 2, which patches
 * `fetch` itself: msw 3 intercepts below the dispatcher, so it sees such requests anyway (and a guard there
 * would refuse the very requests MSW answers).
 */
export function installNetworkGuard(): () => void {
  const store = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  if (!fetchPatchedByMsw()) return () => undefined;
  if (state.installs === 0) {
    // Reading `Request` loads Node's fetch, which creates the dispatcher (it is lazy until then).
    void globalThis.Request;
    const original = store[DISPATCHER];
    if (original !== undefined && typeof original.dispatch === "function") {
      state.original = original;
      const guard: Dispatcher = Object.create(original) as Dispatcher;
      guard.dispatch = (options, handler) => {
        const context = currentTurnContext();
        const refusal = context?.host.uncaught?.(context, `${options.method ?? "GET"} ${String(options.origin ?? "")}${options.path ?? ""}`);
        if (refusal === undefined) return original.dispatch(options, handler);
        const error = new TypeError(refusal);
        queueMicrotask(() => (typeof handler.onResponseError === "function" ? handler.onResponseError(null, error) : handler.onError?.(error)));
        return true;
      };
      store[DISPATCHER] = guard;
    }
  }
  state.installs += 1;
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    state.installs -= 1;
    if (state.installs === 0 && state.original !== undefined) {
      // Unless someone set a dispatcher of their own since (`setGlobalDispatcher`): theirs stays.
      if (Object.getPrototypeOf(store[DISPATCHER]) === state.original) store[DISPATCHER] = state.original;
      state.original = undefined;
    }
  };
}

/** msw 2's fetch interceptor marks itself on `globalThis` while it has `fetch` patched. */
function fetchPatchedByMsw(): boolean {
  return (globalThis as unknown as Record<symbol, unknown>)[Symbol.for("fetch-interceptor")] !== undefined;
}
