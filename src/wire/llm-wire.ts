import { http, HttpResponse, matchRequestUrl, type HttpHandler } from "msw";
import { respondAndRecord } from "../model/record-model-call.js";
import { createResponder, type Responder } from "../model/responder.js";
import type { MockModelInput } from "../model/types.js";
import type { ModelCall } from "../trace/types.js";
import { anthropicMessages } from "./anthropic-messages.js";
import { DEFAULT_BASE_URLS, endpointsFor } from "./base-urls.js";
import { ERROR_STATUS, WireRequestError, type WireApi, type WireCodec, type WireErrorKind } from "./codec.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";

const CODECS: readonly WireCodec[] = [anthropicMessages, openaiChat, openaiResponses];

/** Options of {@link llmWire}. */
export interface LlmWireOptions {
  /** The mock model's replies: anything `mockModel()` accepts, or a `Responder` shared with a `mockModel`. */
  readonly respond?: MockModelInput | Responder;
  /**
   * More base URLs to answer at, beside the providers' own (which are always mocked): a gateway, a local
   * server, an Azure deployment (`https://res.openai.azure.com/openai/deployments/*`). Each base answers the
   * APIs in `apis`, with paths built the way the SDKs build them.
   */
  readonly baseUrls?: readonly string[];
  /** The models that exist; any other gets the provider's 404. Default: every model exists. */
  readonly models?: readonly string[];
  /** The APIs to serve. Default: all three. */
  readonly apis?: readonly WireApi[];
}

/** The wire mock: MSW handlers plus what they answered. */
export interface LlmWire {
  /** Add these to your own `setupServer(...)` or `server.use(...)`, or use `startLlmServer`. */
  readonly handlers: HttpHandler[];
  /** Every model call answered, in order, also those made outside a session. */
  readonly calls: readonly ModelCall[];
  readonly responder: Responder;
  /** Turns the handlers off: they let requests fall through to the server's other handlers. */
  close(): void;
}

/**
 * MSW handlers that answer the Anthropic Messages, OpenAI Chat Completions and OpenAI Responses APIs
 * from a deterministic mock model, in plain JSON or as the providers' server-sent events.
 *
 * @example
 * ```ts
 * const wire = llmWire({ respond: ({ lastUserMessage }) => `Echo: ${lastUserMessage}` });
 * const server = setupServer(...wire.handlers, ...yourHandlers);
 * server.listen();
 * ```
 */
export function llmWire(options: LlmWireOptions = {}): LlmWire {
  const responder = isResponder(options.respond) ? options.respond : createResponder(options.respond as MockModelInput | undefined);
  const calls: ModelCall[] = [];
  const apis = new Set(options.apis ?? CODECS.map((codec) => codec.api));
  const models = options.models ? new Set(options.models) : undefined;
  let responses = 0;
  let open = true;
  const handlers: HttpHandler[] = [];
  for (const codec of CODECS) {
    if (!apis.has(codec.api)) continue;
    const own = codec.api === "anthropic.messages" ? DEFAULT_BASE_URLS.anthropic : DEFAULT_BASE_URLS.openai;
    const urls = [...new Set([own, ...(options.baseUrls ?? [])].flatMap((base) => endpointsFor(base, codec.api)))];
    // A predicate rather than a path: once closed, the handler does not match at all, so the request is
    // the server's to handle (or to report as unhandled under the user's own policy).
    const matches = urlMatcher(urls);
    const predicate = ({ request }: { request: Request }) => open && matches(request.url);
    handlers.push(
      http.post(predicate, async ({ request }) => {
        responses += 1;
        return answer(codec, request, { responder, models, calls, responseNumber: responses });
      }),
    );
  }
  return {
    handlers,
    calls,
    responder,
    close: () => {
      open = false;
    },
  };
}

interface AnswerState {
  readonly responder: Responder;
  readonly models: ReadonlySet<string> | undefined;
  readonly calls: ModelCall[];
  readonly responseNumber: number;
}

async function answer(codec: WireCodec, request: Request, state: AnswerState): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return error(codec, "invalid_request", "We could not parse the JSON body of your request. The body must be valid JSON.");
  }
  if (body !== null && typeof body === "object" && !("model" in body)) {
    const deployment = /\/deployments\/([^/]+)\//.exec(new URL(request.url).pathname)?.[1];
    if (deployment) body = { ...body, model: decodeURIComponent(deployment) };
  }
  let decoded;
  try {
    decoded = codec.decode(body);
  } catch (cause) {
    if (cause instanceof WireRequestError) return error(codec, "invalid_request", cause.message);
    throw cause;
  }
  if (state.models && !state.models.has(decoded.model)) {
    return error(codec, "not_found", codec.api === "anthropic.messages" ? `model: ${decoded.model}` : `The model \`${decoded.model}\` does not exist or you do not have access to it.`);
  }
  let reply;
  try {
    reply = await respondAndRecord(
      state.responder,
      decoded.view,
      { provider: codec.api, model: decoded.model, streamed: decoded.stream, idPrefix: codec.idPrefix },
      (call) => state.calls.push(call),
    );
  } catch (cause) {
    return error(codec, "server", cause instanceof Error ? cause.message : String(cause));
  }
  const id = responseId(codec, state.responseNumber);
  if (!decoded.stream) return jsonResponse(codec.encodeJson(reply, decoded, id), 200, providerHeaders(codec));
  const encoder = new TextEncoder();
  const events = codec.encodeStream(reply, decoded, id);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(event));
      controller.close();
    },
  });
  return new HttpResponse(stream, { headers: { ...providerHeaders(codec), "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
}

function error(codec: WireCodec, kind: WireErrorKind, message: string): Response {
  // `x-should-retry: false` stops the official SDKs from retrying a mock's deliberate error.
  return jsonResponse(codec.errorBody(kind, message), ERROR_STATUS[kind], { ...providerHeaders(codec), "x-should-retry": "false" });
}

function jsonResponse(body: unknown, status: number, headers: Record<string, string>): Response {
  return new HttpResponse(JSON.stringify(body), { status, headers: { ...headers, "content-type": "application/json" } });
}

function providerHeaders(codec: WireCodec): Record<string, string> {
  return codec.api === "anthropic.messages" ? { "request-id": "req_tooltrace" } : { "x-request-id": "req_tooltrace" };
}

function responseId(codec: WireCodec, n: number): string {
  const serial = String(n).padStart(6, "0");
  if (codec.api === "anthropic.messages") return `msg_tooltrace${serial}`;
  if (codec.api === "openai.chat") return `chatcmpl-tooltrace${serial}`;
  return `resp_tooltrace${serial}`;
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

function isResponder(value: unknown): value is Responder {
  return value !== null && typeof value === "object" && typeof (value as Responder).respond === "function" && typeof (value as Responder).modelId === "string";
}

