import type { InteractionHost, TurnContext } from "../pipeline/caught.js";
import { catchModelCall } from "./model-call.js";
import { resolveRoute } from "./routes.js";
import { currentTurnContext } from "./turn-context.js";
import { estimateTokens, promptCharacters } from "../model/estimate-usage.js";
import { createResponder, type Responder } from "../model/responder.js";
import type { MockModelInput, MockModelRequest, ResolvedReply } from "../model/types.js";
import type { Mutable } from "../trace/records.js";
import type { ModelCall } from "../trace/types.js";
import { anthropicMessages } from "../wire/anthropic-messages.js";
import {
  ERROR_STATUS,
  WireRequestError,
  type DecodedRequest,
  type WireApi,
  type WireCodec,
  type WireErrorKind,
  type WireMemory,
  emptyMemory,
} from "../wire/codec.js";
import { openaiChat } from "../wire/openai-chat.js";
import { openaiResponses } from "../wire/openai-responses.js";
import type { WireToolCalls } from "./wire-tool-calls.js";
import { forwardToUpstream, rawReplyOf, upstreamUrl, UpstreamError } from "../wire/upstream.js";
import { TooltraceError } from "../base/errors.js";

/** Every codec, in the order their endpoint paths are tried. */
export const CODECS: readonly WireCodec[] = [anthropicMessages, openaiChat, openaiResponses];

/** Options of {@link createLlmAnswer}. */
export interface LlmAnswerOptions {
  /** The mock model's replies: anything `mockModel()` accepts, or a `Responder` shared with a `mockModel`. */
  readonly respond?: MockModelInput | Responder;
  /** The models that exist (listed by `GET /v1/models`); any other gets the provider's 404. Default: every model exists. */
  readonly models?: readonly string[];
  /** The APIs to serve. Default: all three. */
  readonly apis?: readonly WireApi[];
}

/** The LLM APIs answered from a mock model, over any transport that speaks `Request` and `Response`. */
export interface LlmAnswer {
  /**
   * Answers one request to an LLM API: the endpoint is read from the end of the path (`.../v1/messages`,
   * `.../chat/completions`, `.../responses`), and every other path gets the provider's own answer (a models
   * list, a token count, or a 404 in its error shape). A path that starts with a session's route
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

/** For the wire mock in front of one agent process (a CLI): set by the CLI adapters. */
export interface AgentProcessOptions {
  /** The turn the process runs in: its requests arrive on a socket, outside any async context. */
  readonly context: TurnContext;
  /** Catch the agent's tool calls in the model's replies (see {@link WireToolCalls}). */
  readonly wireTools?: WireToolCalls;
}

/** At most this many stored items and responses per session (Responses `item_reference`), oldest first out. */
const MAX_REMEMBERED = 10_000;

/**
 * The wire mock without a transport: `answer(Request): Promise<Response>` with the providers' JSON and
 * server-sent events. The MSW handlers and a `node:http` server both serve it.
 */
export function createLlmAnswer(options: LlmAnswerOptions = {}): LlmAnswer {
  return createAnswer(options);
}

/** {@link createLlmAnswer}, also for the proxy in front of one agent process (the CLI adapters). */
export function createAnswer(options: LlmAnswerOptions = {}, agentProcess?: AgentProcessOptions): LlmAnswer {
  const responder = isResponder(options.respond) ? options.respond : createResponder(options.respond as MockModelInput | undefined);
  const calls: ModelCall[] = [];
  const apis = new Set(options.apis ?? CODECS.map((codec) => codec.api));
  const codecs = CODECS.filter((codec) => apis.has(codec.api));
  const models = options.models ? new Set(options.models) : undefined;
  // What a Responses conversation may reference, kept per session (and once for calls outside any session).
  const memories = new WeakMap<InteractionHost, WireMemory>();
  const outside = emptyMemory();
  const memoryFor = (context: TurnContext | undefined): WireMemory => {
    if (context === undefined) return outside;
    let memory = memories.get(context.host);
    if (memory === undefined) {
      memory = emptyMemory();
      memories.set(context.host, memory);
    }
    return memory;
  };
  let responses = 0;
  const codecFor = (pathname: string) => codecs.find((codec) => pathname.endsWith(codec.path));
  return {
    calls,
    responder,
    codecFor,
    async answer(request) {
      const url = new URL(request.url);
      const { target, path } = resolveRoute(url.pathname);
      const codec = codecFor(path);
      if (codec === undefined || request.method !== "POST") return otherPath(request, path, models);
      if (target !== undefined && "problem" in target) return error(codec, "mock_failed", `[tooltrace] ${target.problem}`);
      const context = target?.context ?? agentProcess?.context ?? currentTurnContext();
      responses += 1;
      const wireTools = agentProcess?.wireTools;
      return answerWith(codec, request, path, {
        responder,
        models,
        calls,
        responseNumber: responses,
        context,
        memory: memoryFor(context),
        proxied: agentProcess !== undefined || target !== undefined,
        ...(wireTools ? { wireTools } : {}),
      });
    },
  };
}

interface AnswerState {
  readonly responder: Responder;
  readonly models: ReadonlySet<string> | undefined;
  readonly calls: ModelCall[];
  readonly responseNumber: number;
  readonly context: TurnContext | undefined;
  readonly memory: WireMemory;
  /** The request came to a loopback server (a CLI's proxy, a session's route), not to the provider's own URL. */
  readonly proxied: boolean;
  /** For an agent in another process: its tool calls, caught in the model's replies. */
  readonly wireTools?: WireToolCalls;
}

async function answerWith(codec: WireCodec, request: Request, path: string, state: AnswerState): Promise<Response> {
  let body: unknown;
  const text = await request.text();
  try {
    body = JSON.parse(text);
  } catch {
    return error(codec, "invalid_request", "We could not parse the JSON body of your request. The body must be valid JSON.");
  }
  if (body !== null && typeof body === "object" && !("model" in body)) {
    const deployment = /\/deployments\/([^/]+)\//.exec(new URL(request.url).pathname)?.[1];
    if (deployment) body = { ...body, model: decodeURIComponent(deployment) };
  }
  let decoded;
  try {
    decoded = codec.decode(body, state.memory);
  } catch (cause) {
    if (cause instanceof WireRequestError) return error(codec, cause.kind, cause.message, cause.param);
    throw cause;
  }
  if (state.models && !state.models.has(decoded.model)) {
    return error(
      codec,
      "not_found",
      codec.api === "anthropic.messages"
        ? `model: ${decoded.model}`
        : `The model \`${decoded.model}\` does not exist or you do not have access to it.`,
    );
  }
  // The record (in a session's log, or made outside one) keeps the status the client gets.
  let record: Mutable<ModelCall> | undefined;
  const sent = (response: Response): Response => {
    if (record?.http) record.http = { ...record.http, statusCode: response.status };
    return response;
  };
  const upstream = state.context?.host.upstream;
  const live =
    upstream === undefined
      ? undefined
      : (view: MockModelRequest) => {
          // The client's own request goes on: a conversation the chain changed (a CLI's withheld calls put back) cannot.
          if (view !== decoded.view && JSON.stringify(view.messages) !== JSON.stringify(decoded.view.messages)) {
            return Promise.reject(
              new TooltraceError(
                "this request's conversation was changed by tooltrace (tool calls answered in the chain were put back in, or inputs and results a middleware changed), and only a client's own request can be sent on to the upstream. Let the real tools run while recording with a CLI agent, or answer its model with `llm`.",
              ),
            );
          }
          // After a replayed prefix, a stateful conversation points at what the cassette's replies were called here.
          if (refersToIssued(decoded.body, state.memory.issued)) {
            return Promise.reject(
              new TooltraceError(
                "this request refers to a response or an item tooltrace issued while replaying (previous_response_id or item_reference), which the upstream never saw, so it cannot go live. Replay a prefix with a client that sends the whole conversation (OpenAI Responses with store: false), or replay the whole cassette.",
              ),
            );
          }
          return forwardToUpstream(
            codec.api,
            upstreamUrl(upstream, codec.api, request.url, path, state.proxied),
            request.headers,
            text,
            decoded.stream,
            request.signal,
          );
        };
  const ask = (view: MockModelRequest) =>
    catchModelCall(
      state.context?.host.responder ?? state.responder,
      {
        provider: codec.api,
        model: decoded.model,
        streamed: decoded.stream,
        request: view,
        http: { method: request.method, url: request.url },
        onRecord: (call) => {
          record = call as Mutable<ModelCall>;
          state.calls.push(call);
        },
      },
      codec.idPrefix,
      state.context,
      live,
    );
  let reply;
  try {
    const { wireTools, context } = state;
    if (wireTools === undefined || context === undefined) {
      reply = await ask(decoded.view);
    } else {
      const view = await wireTools.prepare(decoded.view);
      reply = await wireTools.settle(context, decoded.view, view, await ask(view), ask);
    }
  } catch (cause) {
    if (cause instanceof UpstreamError)
      return sent(new Response(cause.body, { status: cause.status, headers: { "content-type": cause.contentType || "application/json" } }));
    return sent(error(codec, "mock_failed", cause instanceof Error ? cause.message : String(cause)));
  }
  // A real model's reply that nothing in the chain replaced reaches the client as the upstream sent it.
  const raw = rawReplyOf(reply);
  if (raw !== undefined) {
    // Later requests may reference what the upstream issued (Responses `item_reference`, `previous_response_id`).
    codec.rememberUpstream?.(raw.body, raw.streamed, decoded, state.memory);
    boundMemory(state.memory);
    return sent(new Response(raw.body, { status: raw.status, headers: raw.headers }));
  }
  const id = responseId(codec, state.responseNumber);
  if (codec.remember) {
    codec.remember(reply, decoded, id, state.memory);
    boundMemory(state.memory);
  }
  return sent(replyResponse(codec, reply, decoded, id));
}

/** A Responses request pointing at a response or an item the wire mock made up (while replaying), which no upstream knows. */
function refersToIssued(body: Readonly<Record<string, unknown>>, ids: ReadonlySet<string>): boolean {
  const issued = (id: unknown) => typeof id === "string" && ids.has(id);
  if (issued(body.previous_response_id)) return true;
  return (
    Array.isArray(body.input) &&
    body.input.some(
      (item: unknown) =>
        item !== null &&
        typeof item === "object" &&
        (item as { type?: unknown }).type === "item_reference" &&
        issued((item as { id?: unknown }).id),
    )
  );
}

function replyResponse(codec: WireCodec, reply: ResolvedReply, decoded: DecodedRequest, id: string): Response {
  if (!decoded.stream) return jsonResponse(codec.encodeJson(reply, decoded, id), 200, providerHeaders(codec.api));
  const encoder = new TextEncoder();
  const events = codec.encodeStream(reply, decoded, id);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(event));
      controller.close();
    },
  });
  return new Response(stream, {
    headers: { ...providerHeaders(codec.api), "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}

/**
 * Every other path on a provider's host gets the provider's own answer, so nothing goes out by accident:
 * `HEAD`/`GET` of the base (a client's connectivity check), the models list, a token count, or a 404.
 */
async function otherPath(request: Request, path: string, models: ReadonlySet<string> | undefined): Promise<Response> {
  const anthropic = /\/messages(\/|$)/.test(path) || request.headers.has("anthropic-version") || request.headers.has("x-api-key");
  const api: WireApi = anthropic ? "anthropic.messages" : "openai.chat";
  const codec = anthropic ? anthropicMessages : openaiChat;
  const headers = providerHeaders(api);
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "" || trimmed === "/v1")
    return request.method === "HEAD" ? new Response(null, { status: 200, headers }) : jsonResponse({}, 200, headers);
  const model = /\/models\/([^/]+)$/.exec(trimmed)?.[1];
  if (request.method === "GET" && (trimmed.endsWith("/models") || model !== undefined)) {
    const ids = [...(models ?? [])];
    const entry = (id: string) =>
      anthropic
        ? { type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }
        : { id, object: "model", created: 1_700_000_000, owned_by: "tooltrace" };
    if (model !== undefined) {
      const id = decodeURIComponent(model);
      if (models !== undefined && !models.has(id))
        return error(codec, "not_found", anthropic ? `model: ${id}` : `The model '${id}' does not exist`);
      return jsonResponse(entry(id), 200, headers);
    }
    const data = ids.map(entry);
    return jsonResponse(
      anthropic ? { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null } : { object: "list", data },
      200,
      headers,
    );
  }
  if (request.method === "POST" && trimmed.endsWith("/messages/count_tokens")) {
    try {
      const view = anthropicMessages.decode(JSON.parse(await request.text()), emptyMemory()).view;
      return jsonResponse({ input_tokens: estimateTokens(promptCharacters(view)) }, 200, headers);
    } catch (cause) {
      return error(codec, "invalid_request", cause instanceof Error ? cause.message : String(cause));
    }
  }
  const message = anthropic ? "Not Found" : `Invalid URL (${request.method} ${path})`;
  return error(
    codec,
    "not_found",
    `${message}. tooltrace's wire mock answers POST ${anthropic ? "/v1/messages" : "/v1/chat/completions and /v1/responses"}, GET /v1/models and /v1/messages/count_tokens.`,
  );
}

/** Keeps the newest `MAX_REMEMBERED` of each kind of remembered thing. */
function boundMemory(memory: WireMemory): void {
  for (const remembered of [memory.items, memory.responses, memory.issued]) {
    while (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  }
}

function error(codec: WireCodec, kind: WireErrorKind, message: string, param?: string): Response {
  // `x-should-retry: false` stops the official SDKs from retrying a mock's deliberate error.
  return jsonResponse(codec.errorBody(kind, message, param), ERROR_STATUS[kind], {
    ...providerHeaders(codec.api),
    "x-should-retry": "false",
  });
}

function jsonResponse(body: unknown, status: number, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": "application/json" } });
}

function providerHeaders(api: WireApi): Record<string, string> {
  return api === "anthropic.messages" ? { "request-id": "req_tooltrace" } : { "x-request-id": "req_tooltrace" };
}

function responseId(codec: WireCodec, n: number): string {
  const serial = String(n).padStart(6, "0");
  if (codec.api === "anthropic.messages") return `msg_tooltrace${serial}`;
  if (codec.api === "openai.chat") return `chatcmpl-tooltrace${serial}`;
  return `resp_tooltrace${serial}`;
}

function isResponder(value: unknown): value is Responder {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as Responder).respond === "function" &&
    typeof (value as Responder).modelId === "string"
  );
}
