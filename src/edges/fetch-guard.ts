import { AsyncLocalStorage } from "node:async_hooks";
import { captureUserFrame } from "../base/call-site.js";
import { message } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { isOwnNetwork } from "../base/own-network.js";
import {
  type DispatchHandler,
  type DispatchOptions,
  dispatchForResponse,
  dispatchRequest,
  dispatchUrl,
  failDispatch,
  respondToDispatch,
} from "./dispatch-handler.js";
import { refuseAtEdge } from "./edge-decision.js";
import { edgeError } from "./edge-error.js";
import { mswInterceptsSockets, mswIsListening } from "./msw-listening.js";
import { handedBelow, whenSettled } from "./requests-below.js";
import { printOut } from "../exits/out.js";
import { fetchRealm } from "./fetch-realm.js";

interface Dispatcher {
  dispatch(options: DispatchOptions, handler: DispatchHandler): boolean;
}
type Fetch = typeof globalThis.fetch;

/**
 * Claims a request `fetch` is about to send: returns how to answer it, or `undefined` to leave it to the
 * network (and the guards). The answer gets the request (its body read) and `send`, which sends it on the
 * network as `fetch` would have and gives back the response.
 */
export type FetchAnswerer = (
  url: string,
  method: string,
) => ((request: Request, send: (request: Request) => Promise<Response>, at: CallSite) => Promise<Response>) | undefined;

/** Where the user's code sent a request: `file:line:column`, formatted when a message needs it. */
export type CallSite = (() => string | undefined) | undefined;

const state = globalSingleton("fetchGuard", () => ({
  installed: false,
  lazy: false,
  warned: false,
  answerers: [] as { readonly name: string; readonly rank: number; readonly answer: FetchAnswerer }[],
  /** Set while a request runs through the `fetch` MSW patched (MSW answered it, or passes it through). */
  viaMsw: new AsyncLocalStorage<true>(),
  mswFetch: undefined as { readonly patched: Fetch; readonly wrapped: Fetch } | undefined,
  /** `fetch` as this realm had it before tooltrace, and what the lazy guard put in its place. */
  original: undefined as Fetch | undefined,
  first: undefined as Fetch | undefined,
  /** From another realm's `fetch` (Jest's environments): the `fetch` that marks this realm's requests. */
  marked: undefined as Fetch | undefined,
}));

/**
 * Guards the layer under `fetch`, where every request of Node's `fetch` (and of a client that kept `fetch`
 * from before anything patched it) is dispatched: installed at the first call of `fetch` (loading Node's
 * `fetch` costs a file that never calls it ~15 ms), or at once by {@link installFetchGuard}.
 */
export function guardFetchLazily(): void {
  if (state.lazy || state.installed) return;
  state.lazy = true;
  const original = globalThis.fetch;
  if (typeof original !== "function") return;
  const first: Fetch = function fetch(input, init) {
    if (globalThis.fetch === first) globalThis.fetch = original;
    installFetchGuard();
    return (state.marked ?? original)(input, init);
  };
  state.original = original;
  state.first = first;
  globalThis.fetch = first;
}

/**
 * Wraps Node's fetch dispatcher now: a request is answered by the first {@link FetchAnswerer} that claims it
 * (the LLM wire), refused when strict mode or the hermetic run forbids it (a network error naming it, and
 * the test fails), and sent otherwise. Where `fetch` comes from another realm (Jest's environments), the guard
 * goes under it there, for this realm's requests alone (see {@link fetchRealm}). Returns false where that realm
 * is out of reach.
 */
export function installFetchGuard(): boolean {
  if (state.installed) return true;
  const fetch = state.original ?? globalThis.fetch;
  const realm = typeof fetch === "function" ? fetchRealm(fetch) : undefined;
  if (realm === undefined) {
    if (!state.warned) {
      state.warned = true;
      printOut(
        "console",
        message(
          "the guard under `fetch` cannot be installed in this environment (the dispatcher of `fetch`'s realm is out of reach): a client that kept `fetch` from before tooltrace's MSW server started is refused only at the socket.",
        ),
      );
    }
    return false;
  }
  const original = realm.original as Dispatcher;
  state.installed = true;
  const guard: Dispatcher = Object.create(original) as Dispatcher;
  guard.dispatch = (options, handler) => {
    if (isOwnNetwork() || options.upgrade) return original.dispatch(options, handler);
    const url = dispatchUrl(options);
    const method = options.method ?? "GET";
    const viaMsw = state.viaMsw.getStore() === true;
    const mswFetch = state.mswFetch;
    if (!viaMsw && mswFetch !== undefined && mswIsListening()) {
      // A client that kept `fetch` from before MSW listened (made at import, or by an earlier file of the
      // worker) sends past MSW's patch: the request goes through MSW's `fetch` now, as the client's would.
      dispatchRequest(options)
        .then((request) => mswFetch.wrapped(request))
        .then(
          (response) => respondToDispatch(handler, response),
          (error: unknown) => failDispatch(handler, error instanceof Error ? error : new TypeError(String(error))),
        );
      return true;
    }
    if (!viaMsw) {
      for (const answerer of state.answerers) {
        const answer = answerer.answer(url, method);
        if (answer === undefined) continue;
        // Still in the caller's stack: the line that sent it, for a refusal the chain makes later.
        const at = captureUserFrame();
        const send = async (request: Request) =>
          dispatchForResponse(original, options, request.body === null ? null : new Uint8Array(await request.arrayBuffer()));
        dispatchRequest(options)
          .then((request) => answer(request, send, at))
          .then(
            (response) => respondToDispatch(handler, response),
            (error: unknown) => failDispatch(handler, error instanceof Error ? error : new TypeError(String(error))),
          );
        return true;
      }
    }
    // msw 3 decides under the dispatcher; what it lets through meets the socket guards, which name the request.
    if (mswInterceptsSockets()) {
      const settled = handedBelow({ channel: "http", method, url, at: captureUserFrame() });
      return original.dispatch(options, whenSettled(handler, settled));
    }
    const refusal = refuseAtEdge({ channel: "http", method, url });
    if (refusal === undefined) return original.dispatch(options, handler);
    failDispatch(handler, edgeError(refusal));
    return true;
  };
  const marked = realm.install(guard);
  if (marked !== undefined) {
    state.marked = marked;
    // This realm's code calls the marking `fetch`; a patch put over tooltrace's (MSW's) calls it below.
    if (globalThis.fetch === state.first || globalThis.fetch === fetch) globalThis.fetch = marked;
  }
  return true;
}

/** Adds (or replaces) a catcher answering requests at the dispatcher, known by `name`; the lowest `rank` is asked first. */
export function answerAtFetch(name: string, rank: number, answer: FetchAnswerer, options: { readonly ifAbsent?: boolean } = {}): void {
  if (options.ifAbsent === true && state.answerers.some((entry) => entry.name === name)) return;
  state.answerers = [...state.answerers.filter((entry) => entry.name !== name), { name, rank, answer }].sort((a, b) => a.rank - b.rank);
}

/**
 * While MSW listens it patches `globalThis.fetch`: the requests that come through that `fetch` are MSW's
 * (answered by its handlers, or passed through by its catcher, which decided), so the dispatcher leaves them
 * to the hermetic guard alone. Call it right after MSW starts listening; the returned function undoes it.
 */
export function markMswFetch(): () => void {
  installFetchGuard();
  if (state.mswFetch !== undefined) return () => undefined;
  const patched = globalThis.fetch;
  // Marked only while MSW intercepts under it: once its server closes the same function is no longer MSW's.
  const wrapped: Fetch = (input, init) => (mswIsListening() ? state.viaMsw.run(true, () => patched(input, init)) : patched(input, init));
  globalThis.fetch = wrapped;
  const mark = { patched, wrapped };
  state.mswFetch = mark;
  return () => {
    if (state.mswFetch !== mark) return;
    state.mswFetch = undefined;
    if (globalThis.fetch === wrapped) globalThis.fetch = patched;
  };
}
