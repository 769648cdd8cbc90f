import { types } from "node:util";
import { globalSingleton } from "../base/global-state.js";
import { fromAnotherRealm, undoWhenRealmEnds } from "../base/realm-end.js";
import { lazyNodeHttp, lazyRequire } from "../base/lazy-require.js";
import { edgeError } from "../edges/edge-error.js";
import { refuseAtEdge } from "../edges/edge-decision.js";
import { mswIsListening } from "../edges/msw-listening.js";
import { holdHttpCaught } from "../pipeline/http-catching.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import type { Terminal } from "../pipeline/types.js";
import { requestView } from "./http-request-view.js";

interface Controller {
  respondWith(response: Response): void;
  errorWith(reason?: unknown): void;
}
interface Interceptor {
  apply(): void;
  dispose(): void;
  on(event: "request", listener: (event: { request: Request; requestId: string; controller: Controller }) => unknown): void;
  on(event: "response", listener: (event: { response: Response; requestId: string; isMockedResponse: boolean }) => unknown): void;
}
type Listener = (...args: never[]) => unknown;
/** The part of an interceptor's emitter another interceptor that reuses it calls. */
interface Emitter {
  addListener(event: string, listener: Listener): unknown;
  removeListener(event: string, listener: Listener): unknown;
}

const interceptors = lazyRequire<{ ClientRequestInterceptor: new () => Interceptor }>("@mswjs/interceptors/ClientRequest");
/** Where the running `ClientRequest` interceptor is kept: MSW's and ours share one (two nested fail each other). */
const RUNNING = Symbol.for("client-request-interceptor");
const state = globalSingleton("nodeHttpCatcher", () => ({
  /** Ours, when it is the one that patched `node:http`, and `http.request` as it left it. */
  own: undefined as Interceptor | undefined,
  patched: undefined as unknown,
  held: false,
  /** Requests a session's chain let go out: their response, when it comes back, is the chain's. */
  passed: new Map<string, (response: Response) => void>(),
}));
const HANDED_BACK = Symbol("handed back");
const isProxy = (value: unknown) => types.isProxy(value);

/**
 * Catches `node:http` and `node:https` requests (axios, got, Slack's `WebClient`, the SDKs built on them) made
 * in a session's turn, with MSW's interceptor for `ClientRequest` and no MSW server: each goes through the
 * session's chain as `fetch`'s requests do, so its HTTP mocks answer it, strict mode refuses it, and it is in
 * the trace. Installed by the first session that needs it (HTTP mocks, or strict mode), and again by the next one
 * after an MSW server that held the interceptor closed it. A request outside every turn, or one an MSW server
 * listening catches, goes on untouched (and meets the guards at its socket).
 */
export function catchNodeHttp(): void {
  const global = globalThis as Record<symbol, unknown>;
  if (state.patched !== undefined && lazyNodeHttp().request === state.patched) {
    remarkOurs();
    return;
  }
  if (global[RUNNING] !== undefined && !isProxy(lazyNodeHttp().request)) {
    // An interceptor is marked running, and node:http is not patched: its patch was put back under it (msw 3,
    // another copy of the interceptors, restores what it found when it closes; an interceptor disposed after
    // another took the mark restores its own originals). The mark goes, or the next interceptor would add its
    // listeners to one that catches nothing; ours is applied.
    delete global[RUNNING];
    state.own = undefined;
  }
  // The one MSW's server applies too: whichever applies first patches node:http, the other adds its listeners.
  const before = lazyNodeHttp().request;
  const interceptor = new (interceptors().ClientRequestInterceptor)();
  if (!state.held) {
    state.held = true;
    holdHttpCaught();
  }
  interceptor.on("request", async ({ request, requestId, controller }) => {
    const context = currentTurnContext();
    // While an MSW server listens it shares this interceptor: its handlers (and tooltrace's catcher) answer.
    if (context === undefined || mswIsListening()) return;
    let handedBack: (value: typeof HANDED_BACK) => void = () => undefined;
    const handed = new Promise<typeof HANDED_BACK>((resolve) => (handedBack = resolve));
    const terminal: Terminal = {
      source: { kind: "real" },
      live: true,
      run: () => {
        const refusal = refuseAtEdge({ channel: "http", method: request.method, url: request.url });
        if (refusal !== undefined) return Promise.reject(edgeError(refusal));
        // Sent on the client's own connection: its response, when it comes, completes the record.
        const response = new Promise<Response>((resolve) => state.passed.set(requestId, resolve));
        handedBack(HANDED_BACK);
        return response;
      },
    };
    try {
      const view = await requestView(request);
      const answered = Promise.resolve(
        context.pipeline.http(context, { kind: "http", method: request.method, url: request.url, request: view }, terminal),
      );
      const first = await Promise.race([answered, handed]);
      if (first === HANDED_BACK) {
        answered.catch(() => undefined);
        context.pipeline.turnEnds.on(context.turn, () => answered);
        return;
      }
      controller.respondWith(first as Response);
    } catch (error) {
      controller.errorWith(error instanceof Error ? error : new TypeError(String(error)));
    }
  });
  interceptor.on("response", ({ response, requestId, isMockedResponse }) => {
    const resolve = state.passed.get(requestId);
    if (resolve === undefined || isMockedResponse) return;
    state.passed.delete(requestId);
    resolve(response.clone());
  });
  interceptor.apply();
  keepRawHeaderRecord();
  keepMarked(interceptor);
  state.patched = lazyNodeHttp().request;
  // Ours patched node:http (no MSW interceptor was running to add our listeners to).
  state.own = state.patched !== before ? interceptor : undefined;
  // Under Jest node:http is shared with the files the worker runs next: ours goes with this file.
  if (state.own !== undefined && fromAnotherRealm(before)) undoWhenRealmEnds(() => disposeOurs(interceptor));
}

function disposeOurs(interceptor: Interceptor): void {
  if (state.own !== interceptor) return;
  interceptor.dispose();
  state.own = undefined;
  state.patched = undefined;
}

/**
 * Before tooltrace's MSW server starts listening: ours, if it patched node:http, is marked running again, so
 * MSW's interceptor adds its listeners to it. Ours is never taken off: msw 2 keeps one interceptor for every
 * server, and one that once added its listeners to ours sends them there for good (to a dead one, had ours
 * been disposed: node:http requests then went out past every server).
 */
export function shareNodeHttpWithMsw(): void {
  remarkOurs();
}

/**
 * Ours, while it patches node:http, marked running again where an MSW server that reused it cleared the mark when
 * it closed: or the next MSW server would patch node:http over ours (two nested fail every request).
 */
function remarkOurs(): void {
  const global = globalThis as Record<symbol, unknown>;
  if (state.own === undefined || state.patched === undefined || lazyNodeHttp().request !== state.patched) return;
  if (global[RUNNING] === undefined) global[RUNNING] = state.own;
}

/**
 * The interceptor proxies the global `Headers`, `Request` and `Response` to keep each header's raw casing, and
 * puts them back when disposed. A class made while they stood builds on the proxy for good (Hono's Node server
 * extends the `Request` it finds when imported): once `Headers` was put back, each request it made threw
 * "inferRawHeaders(...) is not iterable". The proxies only record, so they stay while the process runs.
 */
function keepRawHeaderRecord(): void {
  for (const key of Object.getOwnPropertySymbols(Headers)) {
    if (key.description === "kRestorePatches") Object.defineProperty(Headers, key, { value: () => undefined, configurable: true });
  }
}

/**
 * An interceptor that reuses ours (an MSW server's, applied while ours runs) adds its listeners to ours, and
 * when it closes clears the mark, then takes them back: ours, still patching node:http, is marked again there,
 * or the next MSW server would patch over it (two nested fail every request). msw 2 keeps one interceptor for
 * every server, and one that once reused ours sends its listeners to ours for good: while another interceptor
 * runs (ours was put back under it), they go to that one.
 */
function keepMarked(interceptor: Interceptor): void {
  const global = globalThis as Record<symbol, { emitter?: Emitter } | undefined>;
  const emitter = (interceptor as unknown as { emitter: Emitter }).emitter;
  const add = emitter.addListener.bind(emitter);
  const remove = emitter.removeListener.bind(emitter);
  const other = () => {
    const running = global[RUNNING];
    return running !== undefined && running !== (interceptor as object) ? running.emitter : undefined;
  };
  emitter.addListener = (event, listener) => (other() ?? { addListener: add }).addListener(event, listener);
  emitter.removeListener = (event, listener) => {
    remove(event, listener);
    other()?.removeListener(event, listener);
    if (state.own === interceptor) remarkOurs();
    return emitter;
  };
}
