import { message } from "../base/errors.js";
import { isLoopback } from "../base/hosts.js";
import { dispatchRequest } from "../edges/dispatch-handler.js";
import { refuseAtEdge } from "../edges/edge-decision.js";
import { answerAtFetch, installFetchGuard } from "../edges/fetch-guard.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { DEFAULT_BASE_URLS } from "../wire/base-urls.js";
import { errorReply } from "../wire/http-replies.js";
import { toResponse } from "../wire/wire-http.js";
import { createLlmAnswer, type LlmAnswer } from "./wire-answer.js";

const PROVIDER_ORIGINS = new Set(Object.values(DEFAULT_BASE_URLS).map((base) => new URL(base).origin));

let wire: LlmAnswer | undefined;

/**
 * The LLM wire without MSW, at the layer under `fetch` (so also for a client made before anything was
 * patched): a request to an LLM API made during a turn of a session that scripts the model (`llm`) or calls
 * the real one (`upstream`) is answered by the same `answer()` as the wire mock. One that the hermetic run
 * refuses (no such session) gets the provider's own error, which its client does not retry, naming what to
 * set. The providers' hosts count, and any host beyond loopback asked for an LLM API's path (a gateway);
 * loopback is left to the test's own fakes and tooltrace's loopback server. With `now`, the guard under
 * `fetch` goes in at once (a session whose model is on the wire); otherwise at the first `fetch`. Returns
 * false where `fetch`'s dispatcher is out of sight (Jest's environments).
 */
export function catchLlmAtFetch(now: boolean): boolean {
  if (wire === undefined) register();
  return now ? installFetchGuard() : true;
}

function register(): void {
  const answer = createLlmAnswer();
  wire = answer;
  answerAtFetch("llm-wire", (url, method, options) => {
    const parsed = parse(url);
    if (parsed === undefined || isLoopback(parsed.hostname)) return undefined;
    const codec = answer.codecFor(parsed.pathname);
    if (codec === undefined && !PROVIDER_ORIGINS.has(parsed.origin)) return undefined;
    const context = currentTurnContext();
    if (context !== undefined && (context.pipeline.responder !== undefined || context.pipeline.upstream !== undefined))
      return async () => answer.answer(await dispatchRequest(options));
    if (codec === undefined) return undefined;
    const refusal = refuseAtEdge({ channel: "http", method, url });
    if (refusal === undefined) return undefined;
    return async () => toResponse(errorReply(codec, "mock_failed", message(refusal)));
  });
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
