import { message } from "../exits/errors.js";
import { excerpt } from "../exits/excerpt.js";
import { createResponder, type Responder } from "../model/responder.js";
import type { MockModelInput, MockModelRequest, ResolvedReply } from "../model/types.js";
import type { TurnContext } from "../pipeline/caught.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import type { ModelCall } from "../trace/types.js";
import type { DecodedRequest, WireApi, WireCodec } from "../wire/codec.js";
import { WireRequestError } from "../wire/codec.js";
import { codecsFor } from "../wire/codecs.js";
import { errorReply, modelReply } from "../wire/http-replies.js";
import { faultReply, pacedReply } from "../wire/fault-replies.js";
import { injectedFaultOf } from "../faults/fault-error.js";
import { paceOf } from "../faults/paced-body.js";
import { onBodyEnd } from "../base/body-end.js";
import { rememberModelRequest } from "./judge-wire.js";
import { answerAsResponse, type WireReply, type WireRequest, withWireAnswer } from "../wire/wire-http.js";
import { boundMemory, emptyMemory, type WireMemory } from "../wire/memory.js";
import { answerOtherPath } from "../wire/other-paths.js";
import { rawReplyOf, UpstreamError } from "../wire/upstream.js";
import { answerOutsideSession, modelTerminal, openModelCall } from "./model-call.js";
import { resolveRoute } from "./routes.js";
import { rememberHeaderSecrets } from "../secrets/known-secrets.js";
import { liveModel, type UpstreamExchange } from "./wire-upstream.js";
import { conversationLength } from "../wire/request-edits.js";
import type { WireToolCalls } from "./wire-tool-calls.js";

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
  /** The same answer before it is a `Response`, for a transport that writes it itself (the loopback server). */
  answerWire(request: WireRequest): Promise<WireReply>;
  /** @internal The codec serving this URL path, if any. */
  codecFor(pathname: string): WireCodec | undefined;
  /** The last 1,000 model calls answered, in order, also those made outside a session. */
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

/** How many answered calls `calls` keeps, newest last: a long-lived wire server must not grow without bound. */
export const MAX_JOURNAL = 1000;

/**
 * The wire mock without a transport: `answer(Request): Promise<Response>` with the providers' JSON and
 * server-sent events. The MSW handlers and a `node:http` server both serve it.
 *
 * @example
 * ```ts
 * const llm = createLlmAnswer({ respond: ({ lastUserMessage }) => `Echo: ${lastUserMessage}` });
 * const server = await serveOnLoopback(llm.answer);
 * ```
 */
export function createLlmAnswer(options: LlmAnswerOptions = {}): LlmAnswer {
  return answering(options, undefined);
}

/** The wire mock in front of one agent process (a CLI's proxy): every request belongs to its turn. */
export function createAgentProcessAnswer(agentProcess: AgentProcessOptions): LlmAnswer {
  return answering({}, agentProcess);
}

function answering(options: LlmAnswerOptions, agentProcess: AgentProcessOptions | undefined): LlmAnswer {
  const responder = isResponder(options.respond) ? options.respond : createResponder(options.respond as MockModelInput | undefined);
  const calls: ModelCall[] = [];
  const journal = (call: ModelCall) => {
    calls.push(call);
    if (calls.length > MAX_JOURNAL) calls.splice(0, calls.length - MAX_JOURNAL);
  };
  const codecs = codecsFor(options.apis);
  const models = options.models ? new Set(options.models) : undefined;
  // What a Responses conversation may reference, kept per session (and once for calls outside any session).
  const memories = new WeakMap<Pipeline, WireMemory>();
  const outside = emptyMemory();
  const memoryFor = (context: TurnContext | undefined): WireMemory => {
    if (context === undefined) return outside;
    let memory = memories.get(context.pipeline);
    if (memory === undefined) {
      memory = emptyMemory();
      memories.set(context.pipeline, memory);
    }
    return memory;
  };
  let responses = 0;
  const codecFor = (pathname: string) =>
    codecs.find((codec) => pathname.endsWith(codec.path) || codec.paths?.some((path) => pathname.endsWith(path)) === true);
  return {
    calls,
    responder,
    codecFor,
    answer: withWireAnswer((request: Request) => answerAsResponse(answerWire(request)), answerWire),
    answerWire,
  };

  async function answerWire(request: WireRequest): Promise<WireReply> {
    const { target, path } = resolveRoute(new URL(request.url).pathname);
    const codec = codecFor(path);
    if (codec === undefined || request.method !== "POST") return answerOtherPath(request, path, models);
    if (target !== undefined && "problem" in target) return errorReply(codec, "mock_failed", message(target.problem));
    const context = target?.context ?? agentProcess?.context ?? currentTurnContext();
    responses += 1;
    const exchange: Exchange = {
      codec,
      request,
      path,
      responder,
      models,
      journal,
      responseNumber: responses,
      context,
      memory: memoryFor(context),
      proxied: agentProcess !== undefined || target !== undefined,
      wireTools: agentProcess?.wireTools,
    };
    return answerModelRequest(exchange);
  }
}

/** One model request on the wire, with what answering it needs. */
interface Exchange extends UpstreamExchange {
  readonly responder: Responder;
  readonly models: ReadonlySet<string> | undefined;
  readonly journal: (call: ModelCall) => void;
  readonly responseNumber: number;
  readonly context: TurnContext | undefined;
  /** For an agent in another process: its tool calls, caught in the model's replies. */
  readonly wireTools: WireToolCalls | undefined;
}

/** The headers a provider's client sends its key in. */
const KEY_HEADERS = ["authorization", "x-api-key", "api-key", "x-goog-api-key"];

async function answerModelRequest(exchange: Exchange): Promise<WireReply> {
  const { codec, request } = exchange;
  // The client's key is replaced wherever it appears in a cassette (an upstream's 401 echoes it).
  for (const name of KEY_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) rememberHeaderSecrets([[name, value]]);
  }
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return errorReply(codec, "invalid_request", "We could not parse the JSON body of your request. The body must be valid JSON.");
  }
  if (body !== null && typeof body === "object" && !("model" in body)) {
    const model = codec.modelFromUrl?.(new URL(request.url));
    if (model !== undefined) body = { ...body, model };
  }
  let decoded: DecodedRequest;
  try {
    decoded = codec.decode(body, exchange.memory, new URL(request.url));
  } catch (cause) {
    if (cause instanceof WireRequestError) return errorReply(codec, cause.kind, cause.message, cause.param);
    // A shape no check foresaw: the provider would refuse it too, and the client should hear it its own way.
    const reason = cause instanceof Error ? cause.message : String(cause);
    return errorReply(codec, "invalid_request", `The request body could not be read as a ${codec.api} request: ${excerpt(reason, 200)}`);
  }
  if (exchange.models && !exchange.models.has(decoded.model)) return errorReply(codec, "not_found", codec.modelNotFound(decoded.model));
  const caught = {
    provider: codec.api,
    model: decoded.model,
    streamed: decoded.stream,
    request: decoded.view,
    http: { method: request.method, url: request.url },
  };
  const { context } = exchange;
  if (context !== undefined && context.judge === undefined) rememberModelRequest(context.pipeline, codec, request, decoded.model);
  if (context === undefined) {
    const outside = answerOutsideSession(exchange.responder, caught, codec.idPrefix);
    const response = await respond(exchange, decoded, () => outside.reply);
    const record = await outside.record;
    exchange.journal({ ...record, http: { ...caught.http, statusCode: response.status } });
    return response;
  }
  const responder = context.pipeline.responder ?? exchange.responder;
  const { wireTools } = exchange;
  const live = liveModel(
    { codec, request, path: exchange.path, proxied: exchange.proxied, memory: exchange.memory },
    context.pipeline,
    decoded,
    text,
    wireTools === undefined ? undefined : () => wireTools.edits(decoded.view),
  );
  // A live stream reaches the client as it arrives when nothing can change the reply: no CLI's tool calls to
  // catch in it, no step of the session's on model calls. It is recorded and traced once it has ended.
  let streamed: ((reply: WireReply) => void) | undefined;
  const early =
    live !== undefined && wireTools === undefined && decoded.stream && context.pipeline.repliesPassThrough
      ? new Promise<WireReply>((resolve) => (streamed = resolve))
      : undefined;
  const ask = (view: MockModelRequest) => {
    const call = openModelCall(context, { ...caught, request: view });
    exchange.journal(call.record);
    const model = live?.(view, streamed, (wait) => context.pipeline.log.providerWait(call.record, wait));
    return {
      call,
      reply: call.run(modelTerminal(responder, context, { idPrefix: codec.idPrefix, ...(model ? { live: model } : {}) })),
    };
  };
  const sent: { call?: ReturnType<typeof ask>["call"] } = {};
  const answering = respond(exchange, decoded, async () => {
    if (wireTools === undefined) {
      const first = ask(decoded.view);
      sent.call = first.call;
      return first.reply;
    }
    const view = await wireTools.prepare(decoded.view);
    const first = ask(view);
    sent.call = first.call;
    const sentLength = conversationLength(codec.editor, decoded.body);
    return wireTools.settle(
      context,
      decoded.view,
      view,
      await first.reply,
      (next) => {
        const again = ask(next);
        sent.call = again.call;
        return again.reply;
      },
      sentLength,
    );
  });
  if (early !== undefined) context.pipeline.turnEnds.on(context.turn, () => answering);
  const response = early === undefined ? await answering : await Promise.race([answering, early]);
  const { call } = sent;
  call?.sent(response.status);
  // A streamed body (paced, cut) of a call already recorded: the call ends with its last byte.
  if (call === undefined || call.record.status === "pending" || !(response.body instanceof ReadableStream)) return response;
  return { ...response, body: onBodyEnd(response.body, () => call.sent("ended")) };
}

/** The client's answer: the reply encoded by the codec, the upstream's own answer, or the provider's error. */
async function respond(exchange: Exchange, decoded: DecodedRequest, reply: () => Promise<ResolvedReply>): Promise<WireReply> {
  const { codec } = exchange;
  let answered: ResolvedReply;
  try {
    answered = await reply();
  } catch (cause) {
    if (cause instanceof UpstreamError)
      return { status: cause.status, headers: { "content-type": cause.contentType || "application/json" }, body: cause.body };
    const fault = injectedFaultOf(cause);
    if (fault !== undefined) return faultReply(codec, fault, decoded, codec.responseId(exchange.responseNumber));
    return errorReply(codec, "mock_failed", cause instanceof Error ? cause.message : String(cause));
  }
  // A real model's reply that nothing in the chain replaced reaches the client as the upstream sent it.
  const raw = rawReplyOf(answered);
  if (raw !== undefined) {
    // Later requests may reference what the upstream issued (Responses `item_reference`, `previous_response_id`).
    codec.rememberUpstream?.(raw.body, raw.streamed, decoded, exchange.memory);
    boundMemory(exchange.memory);
    return { status: raw.status, headers: raw.headers, body: raw.body };
  }
  const id = codec.responseId(exchange.responseNumber);
  if (codec.remember) {
    codec.remember(answered, decoded, id, exchange.memory);
    boundMemory(exchange.memory);
  }
  const pace = paceOf(answered);
  const encoded = modelReply(codec, answered, decoded, id);
  if (pace === undefined || !decoded.stream) return encoded;
  return pacedReply(encoded, pace, answered, codec.encodeStream(answered, decoded, id));
}

function isResponder(value: unknown): value is Responder {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as Responder).respond === "function" &&
    typeof (value as Responder).modelId === "string"
  );
}
