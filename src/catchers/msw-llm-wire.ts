import { http, matchRequestUrl, type HttpHandler } from "msw";
import { holdWireMock } from "../pipeline/http-catching.js";
import { codecsFor } from "../wire/codecs.js";
import { markTooltraceHandler } from "./msw-http.js";
import { createLlmAnswer, type LlmAnswer, type LlmAnswerOptions } from "./wire-answer.js";

/** Options of {@link llmWire}. */
export interface LlmWireOptions extends LlmAnswerOptions {
  /**
   * More base URLs to answer at, beside the providers' own (which are always mocked): a gateway, a local
   * server, an Azure deployment (`https://res.openai.azure.com/openai/deployments/*`). Each base answers the
   * APIs in `apis`, with paths built the way the SDKs build them.
   */
  readonly baseUrls?: readonly string[];
}

/** The wire mock as MSW handlers, plus what they answered. */
export interface LlmWire extends LlmAnswer {
  /** Add these to your own `setupServer(...)` or `server.use(...)`, or use `startLlmServer`. */
  readonly handlers: HttpHandler[];
  /** Turns the handlers off: they let requests fall through to the server's other handlers. */
  close(): void;
}

/**
 * MSW handlers that answer the Anthropic Messages, OpenAI Chat Completions and OpenAI Responses APIs
 * from a deterministic mock model, in plain JSON or as the providers' server-sent events. Each handler
 * only hands the request to {@link createLlmAnswer}'s `answer`, which a `node:http` server can serve too.
 *
 * @example
 * ```ts
 * const wire = llmWire({ respond: ({ lastUserMessage }) => `Echo: ${lastUserMessage}` });
 * const server = setupServer(...wire.handlers, ...yourHandlers);
 * server.listen();
 * ```
 */
export function llmWire(options: LlmWireOptions = {}): LlmWire {
  const answer = createLlmAnswer(options);
  const codecs = codecsFor(options.apis);
  let open = true;
  const urls = codecs.flatMap((codec) => [codec.defaultBaseUrl, ...(options.baseUrls ?? [])].flatMap((base) => codec.endpoints(base)));
  // Predicates rather than paths: once closed, the handlers do not match at all, so the request is the
  // server's to handle (or to report as unhandled under the user's own policy).
  const endpoint = urlMatcher([...new Set(urls)]);
  // Everything else under the providers' hosts and the given bases is answered too (a models list, a
  // token count, a 404 in the provider's shape), so no stray request reaches a real provider.
  const bases = [
    ...new Set(codecsFor(undefined).map((codec) => new URL(codec.defaultBaseUrl).origin)),
    ...(options.baseUrls ?? []).map((base) => base.replace(/\*.*$/, "").replace(/\/+$/, "")),
  ];
  const underBase = (url: string) => bases.some((base) => url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`));
  const handlers = [
    http.post(
      ({ request }) => open && endpoint(request.url),
      ({ request }) => answer.answer(request),
    ),
    http.all(
      ({ request }) => open && underBase(request.url),
      ({ request }) => answer.answer(request),
    ),
  ];
  for (const handler of handlers) markTooltraceHandler(handler);
  const release = holdWireMock();
  return {
    ...answer,
    handlers,
    close: () => {
      open = false;
      release();
    },
  };
}

/** Exact URLs compare as strings (query ignored); patterns with `*` or `:param` go through MSW's matcher. */
function urlMatcher(urls: readonly string[]): (url: string) => boolean {
  const exact = new Set(urls.filter((url) => !/[*]|\/:/.test(url.replace(/^\w+:\/\/[^/]*/, ""))));
  const patterns = urls.filter((url) => !exact.has(url));
  return (url) => {
    const query = url.search(/[?#]/);
    const bare = query === -1 ? url : url.slice(0, query);
    if (exact.has(bare)) return true;
    return patterns.length > 0 && patterns.some((pattern) => matchRequestUrl(new URL(url), pattern).matches);
  };
}
