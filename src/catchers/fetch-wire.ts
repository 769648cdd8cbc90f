import { message } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { isLoopback } from "../pipeline/hosts.js";
import { refuseAtEdge } from "../edges/edge-decision.js";
import { answerAtFetch, type FetchAnswerer, installFetchGuard } from "../edges/fetch-guard.js";
import { mswInterceptsSockets } from "../edges/msw-listening.js";
import { holdWireMock } from "../pipeline/http-catching.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { DEFAULT_BASE_URLS } from "../wire/base-urls.js";
import { errorReply } from "../wire/http-replies.js";
import { toResponse } from "../wire/wire-http.js";
import { isOwnLoopbackServer } from "./own-loopback.js";
import { createLlmAnswer, type LlmAnswer } from "./wire-answer.js";

const PROVIDER_ORIGINS = new Set(Object.values(DEFAULT_BASE_URLS).map((base) => new URL(base).origin));

/** The run's wire mock, when the plugin's `llm` turns it on: more bases to answer, the models that exist. */
export interface RunWireOptions {
  readonly baseUrls?: readonly string[];
  readonly models?: readonly string[];
}

const state = globalSingleton("fetchWire", () => ({
  answer: undefined as LlmAnswer | undefined,
  /** Set by the plugin's `llm`: every LLM API request of the run is answered, in a session or not. */
  run: undefined as { readonly bases: readonly string[] } | undefined,
}));

/**
 * The LLM wire without MSW, at the layer under `fetch` (so also for a client made before anything was
 * patched): a request to an LLM API made during a turn of a session that scripts the model (`llm`) or calls
 * the real one (`upstream`) is answered by the same `answer()` as the wire mock, and so is every other when
 * the run's wire is on (the plugin's `llm`: "Mock response", or the session's `llm`). One the hermetic run
 * refuses gets the provider's own error, which its client does not retry, naming what to set. The
 * providers' hosts count, and any host beyond loopback asked for an LLM API's path (a gateway); loopback is
 * left to the test's own fakes and tooltrace's loopback server, but for the run's `baseUrls`. With `now`,
 * the guard under `fetch` goes in at once (a session whose model is on the wire); otherwise at the first
 * `fetch`. Returns false where `fetch`'s dispatcher is out of sight (Jest's environments).
 */
export function catchLlmAtFetch(now: boolean): boolean {
  if (state.answer === undefined) register(createLlmAnswer());
  return now ? installFetchGuard() : true;
}

/** The plugin's `llm`: the run's wire mock answers every LLM API request, also outside sessions. */
export function answerLlmForTheRun(options: RunWireOptions): void {
  register(createLlmAnswer(options.models !== undefined ? { models: options.models } : {}));
  state.run = { bases: (options.baseUrls ?? []).map((base) => base.replace(/\*.*$/, "").replace(/\/+$/, "")) };
  holdWireMock();
}

function register(answer: LlmAnswer): void {
  state.answer = answer;
  answerAtFetch("llm-wire", 0, wireAnswerer(answer));
}

/** The answerer at the layer under `fetch` for the LLM wire, made once (see {@link catchLlmAtFetch}). */
export function llmWireAnswerer(): FetchAnswerer {
  if (state.answer === undefined) register(createLlmAnswer());
  return wireAnswerer(state.answer as LlmAnswer);
}

function wireAnswerer(answer: LlmAnswer): FetchAnswerer {
  return (url, method) => {
    const parsed = parse(url);
    if (parsed === undefined) return undefined;
    const listed = state.run?.bases.some((base) => url === base || url.startsWith(`${base}/`)) === true;
    const codec = answer.codecFor(parsed.pathname);
    const context = currentTurnContext();
    // Loopback is the test's own fakes, but for a session that scripts the model: a client pointed at a local
    // gateway (Ollama, LiteLLM) asking an LLM API tooltrace speaks is answered by the mock, never silently live.
    if (
      isLoopback(parsed.hostname) &&
      !listed &&
      (codec === undefined || context?.pipeline.responder === undefined || isOwnLoopbackServer(parsed.origin))
    )
      return undefined;
    if (codec === undefined && !PROVIDER_ORIGINS.has(parsed.origin) && !listed) return undefined;
    const scripted = context !== undefined && (context.pipeline.responder !== undefined || context.pipeline.upstream !== undefined);
    if (scripted || state.run !== undefined)
      return async (request) => {
        const response = await answer.answer(request);
        // An injected network error: `fetch` rejects, as when the connection fails.
        if (response.type === "error")
          throw new TypeError("fetch failed", { cause: new Error("the connection failed (an injected network_error)") });
        return response;
      };
    if (codec === undefined) return undefined;
    // Under msw 3 the user's handlers answer below this layer: what they let through is refused at the socket.
    if (mswInterceptsSockets()) return undefined;
    const refusal = refuseAtEdge({ channel: "http", method, url });
    if (refusal === undefined) return undefined;
    return async () => toResponse(errorReply(codec, "mock_failed", message(refusal)));
  };
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
