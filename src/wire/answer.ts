import type { TurnContext } from "../chain/caught.js";
import { catchModelCall } from "../catchers/model-call.js";
import { resolveRoute } from "../catchers/routes.js";
import { currentTurnContext } from "../catchers/turn-context.js";
import { createResponder, type Responder } from "../model/responder.js";
import type { MockModelInput } from "../model/types.js";
import type { ModelCall } from "../trace/types.js";
import { anthropicMessages } from "./anthropic-messages.js";
import { ERROR_STATUS, WireRequestError, type WireApi, type WireCodec, type WireErrorKind } from "./codec.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";

/** Every codec, in the order their endpoint paths are tried. */
export const CODECS: readonly WireCodec[] = [anthropicMessages, openaiChat, openaiResponses];

/** Options of {@link createLlmAnswer}. */
export interface LlmAnswerOptions {
  /** The mock model's replies: anything `mockModel()` accepts, or a `Responder` shared with a `mockModel`. */
  readonly respond?: MockModelInput | Responder;
  /** The models that exist; any other gets the provider's 404. Default: every model exists. */
  readonly models?: readonly string[];
  /** The APIs to serve. Default: all three. */
  readonly apis?: readonly WireApi[];
}

/** The LLM APIs answered from a mock model, over any transport that speaks `Request` and `Response`. */
export interface LlmAnswer {
  /**
   * Answers one request to an LLM API: the endpoint is read from the end of the path (`.../v1/messages`,
   * `.../chat/completions`, `.../responses`). A path that starts with a session's route
   * (`/tooltrace/<token>/...`) is attributed to that session's running turn; otherwise to the turn running
   * in the caller's async context, if any.
   */
  answer(request: Request): Promise<Response>;
  /** The codec serving this URL path, if any. */
  codecFor(pathname: string): WireCodec | undefined;
  /** Every model call answered, in order, also those made outside a session. */
  readonly calls: readonly ModelCall[];
  readonly responder: Responder;
}

/**
 * The wire mock without a transport: `answer(Request): Promise<Response>` with the providers' JSON and
 * server-sent events. The MSW handlers and a `node:http` server both serve it.
 */
export function createLlmAnswer(options: LlmAnswerOptions = {}): LlmAnswer {
  const responder = isResponder(options.respond) ? options.respond : createResponder(options.respond as MockModelInput | undefined);
  const calls: ModelCall[] = [];
  const apis = new Set(options.apis ?? CODECS.map((codec) => codec.api));
  const codecs = CODECS.filter((codec) => apis.has(codec.api));
  const models = options.models ? new Set(options.models) : undefined;
  let responses = 0;
  const codecFor = (pathname: string) => codecs.find((codec) => pathname.endsWith(codec.path));
  return {
    calls,
    responder,
    codecFor,
    async answer(request) {
      const url = new URL(request.url);
      const { target, path } = resolveRoute(url.pathname);
      const codec = codecFor(path) ?? codecFor(url.pathname);
      if (codec === undefined) return new Response(JSON.stringify({ error: { message: `tooltrace's wire mock does not serve ${request.method} ${path}` } }), { status: 404, headers: { "content-type": "application/json" } });
      if (target !== undefined && "problem" in target) return error(codec, "server", `[tooltrace] ${target.problem}`);
      const context = target?.context ?? currentTurnContext();
      responses += 1;
      return answerWith(codec, request, { responder, models, calls, responseNumber: responses, context });
    },
  };
}

interface AnswerState {
  readonly responder: Responder;
  readonly models: ReadonlySet<string> | undefined;
  readonly calls: ModelCall[];
  readonly responseNumber: number;
  readonly context: TurnContext | undefined;
}

async function answerWith(codec: WireCodec, request: Request, state: AnswerState): Promise<Response> {
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
    reply = await catchModelCall(
      state.responder,
      { provider: codec.api, model: decoded.model, streamed: decoded.stream, request: decoded.view, http: { method: request.method, url: request.url }, onRecord: (call) => state.calls.push(call) },
      codec.idPrefix,
      state.context,
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
  return new Response(stream, { headers: { ...providerHeaders(codec), "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
}

function error(codec: WireCodec, kind: WireErrorKind, message: string): Response {
  // `x-should-retry: false` stops the official SDKs from retrying a mock's deliberate error.
  return jsonResponse(codec.errorBody(kind, message), ERROR_STATUS[kind], { ...providerHeaders(codec), "x-should-retry": "false" });
}

function jsonResponse(body: unknown, status: number, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": "application/json" } });
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

function isResponder(value: unknown): value is Responder {
  return value !== null && typeof value === "object" && typeof (value as Responder).respond === "function" && typeof (value as Responder).modelId === "string";
}
