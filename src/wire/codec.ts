import type { MockModelMessage, MockModelRequest, MockModelToolResult, ResolvedReply } from "../model/types.js";
import type { WireMemory } from "./memory.js";
import type { ConversationEditor } from "./request-edits.js";
import type { WireRequest } from "./wire-http.js";

/** The LLM APIs the wire mock speaks. */
export type WireApi = "anthropic.messages" | "openai.chat" | "openai.responses" | "google.gemini";

/** A request after decoding. */
export interface DecodedRequest {
  readonly model: string;
  readonly stream: boolean;
  /** OpenAI Chat: whether the client asked for the final usage chunk (`stream_options.include_usage`). */
  readonly includeUsage: boolean;
  /** Gemini's `streamGenerateContent` without `alt=sse`: the stream is one JSON array of its chunks. */
  readonly jsonArrayStream?: boolean;
  readonly view: MockModelRequest;
  /** The request body as sent, for the fields a real response echoes (`tools`, `instructions`, ...). */
  readonly body: Readonly<Record<string, unknown>>;
  /** OpenAI Responses: the conversation's items with references resolved, stored with the response. */
  readonly items?: readonly unknown[];
}

/** The error kinds every provider has, mapped to its own status and shape. */
export type WireErrorKind = "invalid_request" | "not_found" | "mock_failed" | "rate_limit" | "server_error" | "overloaded";

/**
 * One provider API, and every way it differs from the others: its endpoints and base URL, its ids and
 * headers, how its requests decode, how a reply encodes as its JSON or its server-sent events, how a real
 * reply of it decodes, its error shape and its models list. Adding a provider is adding one of these.
 */
export interface WireCodec {
  readonly api: WireApi;
  /** The end of the endpoint's URL path (`/messages`, `/chat/completions`, `/responses`, `:generateContent`). */
  readonly path: string;
  /** More ends of endpoint paths, for a provider with several (Gemini's `:streamGenerateContent`). */
  readonly paths?: readonly string[];
  /** The provider's own base URL, which the wire mock always answers. */
  readonly defaultBaseUrl: string;
  /** Prefix of derived tool-call ids. */
  readonly idPrefix: string;
  /** Headers every answer of the provider carries (its request id). */
  readonly headers: Readonly<Record<string, string>>;
  /** The endpoint URLs under a base URL, the way the provider's SDK builds them. */
  endpoints(base: string): string[];
  /** The id of the mock's `n`-th response. */
  responseId(n: number): string;
  /** The model a request names in its URL when its body names none (an Azure deployment). */
  modelFromUrl?(url: URL): string | undefined;
  /** True when a request to a path no endpoint serves is this provider's (its path or its headers). */
  owns?(request: WireRequest, path: string): boolean;
  /**
   * Throws {@link WireRequestError} when the body is not a valid request of this API. `url` is the request's,
   * for a provider whose URL names the model and the streaming (Gemini).
   */
  decode(body: unknown, memory: WireMemory, url?: URL): DecodedRequest;
  encodeJson(reply: ResolvedReply, request: DecodedRequest, responseId: string): unknown;
  /** The stream as the provider sends it: whole server-sent events, in order, terminator included. */
  encodeStream(reply: ResolvedReply, request: DecodedRequest, responseId: string): string[];
  /** A real reply of this API (JSON, or the whole text of its server-sent events) as the mock model's reply. */
  decodeReply(body: string, streamed: boolean): ResolvedReply;
  /** Remembers what this response issued, for later references to it (Responses only). */
  remember?(reply: ResolvedReply, request: DecodedRequest, responseId: string, memory: WireMemory): void;
  /** Remembers what a real upstream's answer (`body`, server-sent events when `streamed`) issued, by its own ids. */
  rememberUpstream?(body: string, streamed: boolean, request: DecodedRequest, memory: WireMemory): void;
  errorBody(kind: WireErrorKind, message: string, param?: string, status?: number): unknown;
  /** The provider's 404 message for a path the wire mock does not serve. */
  pathNotFound(method: string, path: string): string;
  /** The provider's message for a model that does not exist. */
  modelNotFound(model: string): string;
  /** `GET /v1/models`: the list of `ids`; `GET /v1/models/{id}`: one entry. */
  modelList(ids: readonly string[]): unknown;
  modelEntry(id: string): unknown;
  /** `POST .../count_tokens`, for a provider that has it: its path's end and the body of the answer. */
  readonly countTokens?: { readonly path: string; answer(body: unknown): unknown };
  /** How a client's request takes the chain's changes before it goes on to the real model. */
  readonly editor: ConversationEditor;
  /** The status of an `overloaded` error: Anthropic's 529; 503 for a provider without one of its own. */
  readonly overloadedStatus: number;
}

/** The request is not a valid request of the API: answered with the provider's 400, or 404 for an unknown reference. */
export class WireRequestError extends Error {
  override readonly name = "WireRequestError";
  constructor(
    message: string,
    readonly kind: "invalid_request" | "not_found" = "invalid_request",
    readonly param?: string,
  ) {
    super(message);
  }
}

/**
 * HTTP status of each error kind (the same for the three APIs). A failing mock model is a 400, which every
 * client gives up on at once: the providers' SDKs and the AI SDK retry 408, 409, 429 and 5xx, LangChain every
 * status but 400-407 and 409 (a 422 was retried six times); a deliberate failure costs one call.
 */
export const ERROR_STATUS: Readonly<Record<WireErrorKind, number>> = {
  invalid_request: 400,
  not_found: 404,
  mock_failed: 400,
  rate_limit: 429,
  server_error: 500,
  overloaded: 529,
};

/** One server-sent event; `event` is omitted for data-only streams (OpenAI Chat). */
export function sse(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`;
}

/** Reads a text-or-parts content field: a string, or an array whose text parts are joined. */
export function contentText(content: unknown, textTypes: readonly string[]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (part): part is { type: string; text: string } =>
        part !== null &&
        typeof part === "object" &&
        textTypes.includes((part as { type?: string }).type ?? "") &&
        typeof (part as { text?: unknown }).text === "string",
    )
    .map((part) => part.text)
    .join("\n");
}

/** Asserts a decoded field is an object record. */
export function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new WireRequestError(`${what} must be an object.`);
  return value as Record<string, unknown>;
}

/**
 * Every item of the body's lists (`tools`, `messages`, `input`, `system`, and each message's `content`)
 * must be an object, as a provider checks before anything else; the path is written the provider's way
 * (`messages.0.content.0` for Anthropic, `messages[0].content[0]` for OpenAI).
 */
export function checkListItems(body: Record<string, unknown>, style: "dots" | "brackets"): void {
  const at = (path: string, index: number) => (style === "dots" ? `${path}.${index}` : `${path}[${index}]`);
  const check = (list: unknown, path: string, inner: boolean) => {
    if (!Array.isArray(list)) return;
    for (const [index, item] of list.entries()) {
      if (typeof item === "string" && !inner) continue;
      if (item === null || typeof item !== "object" || Array.isArray(item))
        throw new WireRequestError(`${at(path, index)} must be an object.`, "invalid_request", at(path, index));
      if (inner) check((item as { content?: unknown }).content, `${at(path, index)}.content`, false);
    }
  };
  check(body.tools, "tools", false);
  check(body.system, "system", false);
  check(body.messages, "messages", true);
  check(body.input, "input", true);
}

/** The fewest characters of text in one streamed delta on the wire: a few tokens, as providers send them. */
export const WIRE_DELTA = 32;

/** Splits a JSON argument string into a few deltas, as providers stream tool arguments. */
export function chunkJson(json: string, size = 64): string[] {
  if (json.length === 0) return [""];
  const chunks: string[] = [];
  for (let i = 0; i < json.length; i += size) chunks.push(json.slice(i, i + size));
  return chunks;
}

/**
 * Adds one tool result to the decoded conversation. Consecutive results answer one assistant turn, so they
 * share one `tool` message, as the AI SDK prompt and the Anthropic API group them.
 */
export function appendToolResult(messages: MockModelMessage[], result: MockModelToolResult, text: string): void {
  const previous = messages.at(-1);
  if (previous?.role === "tool" && previous.toolResults) {
    messages[messages.length - 1] = { ...previous, text: `${previous.text}\n${text}`, toolResults: [...previous.toolResults, result] };
  } else {
    messages.push({ role: "tool", text, toolResults: [result] });
  }
}

/** The serial of the mock's `n`-th response, as its ids carry it (`msg_tooltrace000001`). */
export function serial(n: number): string {
  return `tooltrace${String(n).padStart(6, "0")}`;
}
