import { chunkText } from "../model/chunk-text.js";
import { estimateTokens, promptCharacters } from "../model/estimate-usage.js";
import { requestView } from "../model/request-view.js";
import type { ResolvedReply } from "../model/types.js";
import { DEFAULT_BASE_URLS } from "./base-urls.js";
import {
  ERROR_STATUS,
  type DecodedRequest,
  serial,
  sse,
  WIRE_DELTA,
  type WireCodec,
  type WireErrorKind,
  WireRequestError,
} from "./codec.js";
import { decodeGeminiConversation, geminiTarget } from "./gemini-decode.js";
import { geminiEditor } from "./gemini-edits.js";
import { decodedReply, type Json, parseEvents, type ReplyToolCall } from "./sse-events.js";

/** Google's `error.status` for each error kind. */
const STATUS: Readonly<Record<WireErrorKind, string>> = {
  invalid_request: "INVALID_ARGUMENT",
  not_found: "NOT_FOUND",
  mock_failed: "FAILED_PRECONDITION",
  rate_limit: "RESOURCE_EXHAUSTED",
  server_error: "INTERNAL",
  overloaded: "UNAVAILABLE",
};

/**
 * Google's Gemini API (`POST .../models/{model}:generateContent` and `:streamGenerateContent?alt=sse`), as
 * `@google/genai` (under `/v1` or `/v1beta`), `@ai-sdk/google` and Gemini CLI call it. The model and the
 * streaming are in the URL; a function call carries no id on the real API, so results pair by name.
 */
export const gemini: WireCodec = {
  api: "google.gemini",
  path: ":generateContent",
  paths: [":streamGenerateContent"],
  defaultBaseUrl: DEFAULT_BASE_URLS.gemini,
  editor: geminiEditor,
  idPrefix: "call_",
  headers: { "x-goog-request-id": "tooltrace" },
  overloadedStatus: 503,

  // No fixed path: the API version and the model are in it. Every path under the base is the wire mock's.
  endpoints: () => [],
  responseId: (n) => serial(n),
  owns: (request, path) => request.headers.has("x-goog-api-key") || /:(countTokens|embedContent|batchEmbedContents)$/.test(path),

  decode(raw, _memory, url) {
    const target = geminiTarget(url);
    const model = target.model ?? (raw as { model?: unknown } | null)?.model;
    if (typeof model !== "string") throw new WireRequestError("The model is named in the URL: .../models/{model}:generateContent.");
    const { messages, tools, toolResults } = decodeGeminiConversation(raw);
    return {
      model,
      stream: target.stream,
      ...(target.stream && !target.sse ? { jsonArrayStream: true } : {}),
      includeUsage: true,
      view: requestView(messages, tools, toolResults),
      body: raw as Json,
    };
  },

  encodeJson(reply, request, responseId) {
    return { ...chunk(request, responseId, parts(reply), reply), usageMetadata: usage(reply) };
  },

  encodeStream(reply, request, responseId) {
    const events: string[] = [];
    const prompt = { promptTokenCount: reply.usage.inputTokens, totalTokenCount: reply.usage.inputTokens };
    for (const text of reply.text === "" ? [] : chunkText(reply.text, WIRE_DELTA))
      events.push(sse({ ...chunk(request, responseId, [{ text }]), usageMetadata: prompt }));
    const calls = parts({ ...reply, text: "" });
    // A function call arrives whole, in one chunk; the last chunk says why the reply ended and its usage.
    events.push(sse({ ...chunk(request, responseId, calls, reply), usageMetadata: usage(reply) }));
    return events;
  },

  decodeReply(body, streamed) {
    // A stream is server-sent events, or (without `alt=sse`) one JSON array of chunks.
    const parsed = streamed ? undefined : (JSON.parse(body) as Json | Json[]);
    const chunks = streamed ? parseEvents(body) : Array.isArray(parsed) ? parsed : [parsed as Json];
    let text = "";
    const toolCalls: ReplyToolCall[] = [];
    let usageMetadata: Json = {};
    for (const json of chunks) {
      if (json.usageMetadata) usageMetadata = json.usageMetadata as Json;
      const content = (((json.candidates ?? []) as Json[])[0]?.content ?? {}) as Json;
      for (const part of (content.parts ?? []) as Json[]) {
        if (typeof part.text === "string" && part.thought !== true) text += part.text;
        const call = part.functionCall as Json | undefined;
        if (call !== undefined) {
          const name = String(call.name ?? "");
          toolCalls.push({ id: typeof call.id === "string" ? call.id : `${name}#${toolCalls.length + 1}`, name, input: call.args ?? {} });
        }
      }
    }
    const output = Number(usageMetadata.candidatesTokenCount ?? 0) + Number(usageMetadata.thoughtsTokenCount ?? 0);
    return decodedReply(text, toolCalls, Number(usageMetadata.promptTokenCount ?? 0), output);
  },

  errorBody(kind, message, _param, status) {
    return { error: { code: status ?? (kind === "overloaded" ? 503 : ERROR_STATUS[kind]), message, status: STATUS[kind] } };
  },
  pathNotFound: (method, path) =>
    `The requested URL ${path} was not found on this server (${method}). tooltrace's wire mock answers POST .../models/{model}:generateContent, :streamGenerateContent and :countTokens, and GET .../models.`,
  modelNotFound: (model) =>
    `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
  // No nextPageToken: an empty one makes @google/genai's pager ask again forever.
  modelList: (ids) => ({ models: ids.map(gemini.modelEntry) }),
  modelEntry: (id) => ({
    name: `models/${id}`,
    baseModelId: id,
    version: "001",
    displayName: id,
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ["generateContent", "countTokens"],
  }),
  countTokens: {
    path: ":countTokens",
    answer: (body) => {
      const { messages, tools, toolResults } = decodeGeminiConversation(body);
      return { totalTokens: estimateTokens(promptCharacters(requestView(messages, tools, toolResults))) };
    },
  },
};

/** The reply's parts: its text, then one `functionCall` per tool call (with the mock's id, which clients echo). */
function parts(reply: ResolvedReply): Json[] {
  const out: Json[] = reply.text === "" ? [] : [{ text: reply.text }];
  for (const call of reply.toolCalls) out.push({ functionCall: { id: call.id, name: call.name, args: call.input ?? {} } });
  return out;
}

/** One `GenerateContentResponse`; with `finished`, its `finishReason`. */
function chunk(request: DecodedRequest, responseId: string, content: Json[], finished?: ResolvedReply): Json {
  const candidate: Json = { content: { role: "model", parts: content }, index: 0 };
  if (finished !== undefined) candidate.finishReason = "STOP";
  return { candidates: [candidate], modelVersion: request.model, responseId };
}

function usage(reply: ResolvedReply): Json {
  return {
    promptTokenCount: reply.usage.inputTokens,
    candidatesTokenCount: reply.usage.outputTokens,
    totalTokenCount: reply.usage.totalTokens,
  };
}
