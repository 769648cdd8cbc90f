import { AsyncLocalStorage } from "node:async_hooks";
import { globalSingleton } from "../base/global-state.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { mswIsListening } from "./msw-listening.js";
import { message } from "../base/errors.js";

/** Node's built-in `fetch` sends every request through the dispatcher stored under this key. */
const DISPATCHER = Symbol.for("undici.globalDispatcher.1");

interface Dispatcher {
  dispatch(options: { origin?: unknown; path?: string; method?: string }, handler: DispatchHandler): boolean;
}
interface DispatchHandler {
  onError?(error: Error): void;
  onResponseError?(controller: unknown, error: Error): void;
}
type Fetch = typeof globalThis.fetch;

const state = globalSingleton("networkGuard", () => ({
  installs: 0,
  dispatcher: undefined as Dispatcher | undefined,
  fetch: undefined as { readonly patched: Fetch; readonly wrapped: Fetch } | undefined,
  warned: false,
  /** Set while a request runs through the intercepted `globalThis.fetch`. */
  viaFetch: new AsyncLocalStorage<true>(),
}));

/**
 * Guards the layer under `fetch` while an MSW server of tooltrace's listens. MSW patches `globalThis.fetch`;
 * a client that kept the `fetch` it found before (an SDK client created at import time, before the server
 * started) skips the patch and would reach the network unseen. Every request reaches Node's dispatcher,
 * though, and those that came through the patched `fetch` are marked on the way (msw 3 dispatches even the
 * requests it answers): an unmarked one made during a turn whose session lets nothing unseen out (strict
 * mode) is refused there and reported. Call it right after the server starts listening; counted, the guard
 * goes when the last server that installed it closes.
 */
export function installNetworkGuard(): () => void {
  const store = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  if (state.installs === 0) {
    // Reading `Request` loads Node's fetch, which creates the dispatcher (it is lazy until then).
    void globalThis.Request;
    const original = store[DISPATCHER];
    if (original !== undefined && typeof original.dispatch === "function") {
      state.dispatcher = original;
      const patched = globalThis.fetch;
      // Marked only while MSW intercepts under it: once a server closes (or before it listens) the same
      // function reaches the network unseen.
      const wrapped: Fetch = (input, init) =>
        mswIsListening() ? state.viaFetch.run(true, () => patched(input, init)) : patched(input, init);
      globalThis.fetch = wrapped;
      state.fetch = { patched, wrapped };
      const guard: Dispatcher = Object.create(original) as Dispatcher;
      guard.dispatch = (options, handler) => {
        const context = state.viaFetch.getStore() === true ? undefined : currentTurnContext();
        const refusal = context?.pipeline.refuseUncaught(
          context,
          options.method ?? "GET",
          `${String(options.origin ?? "")}${options.path ?? ""}`,
        );
        if (refusal === undefined) return original.dispatch(options, handler);
        const error = new TypeError(refusal);
        queueMicrotask(() =>
          typeof handler.onResponseError === "function" ? handler.onResponseError(null, error) : handler.onError?.(error),
        );
        return true;
      };
      store[DISPATCHER] = guard;
    } else if (!state.warned) {
      state.warned = true;
      // Jest's environments and Vitest's vm pools give the tests another realm than Node's fetch dispatcher.
      console.warn(
        message(
          "the guard under `fetch` cannot be installed in this environment (Node's fetch dispatcher is not visible here, as in Jest's environments or Vitest's vm pools): " +
            "a client that kept `fetch` from before tooltrace's MSW server started would not be refused. Create SDK clients after the server starts.",
        ),
      );
    }
  }
  state.installs += 1;
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    state.installs -= 1;
    if (state.installs > 0) return;
    // Each piece goes back only if nobody replaced it since (`setGlobalDispatcher`, another patch of `fetch`).
    if (state.fetch !== undefined && globalThis.fetch === state.fetch.wrapped) globalThis.fetch = state.fetch.patched;
    if (state.dispatcher !== undefined && Object.getPrototypeOf(store[DISPATCHER]) === state.dispatcher)
      store[DISPATCHER] = state.dispatcher;
    state.fetch = undefined;
    state.dispatcher = undefined;
  };
}
