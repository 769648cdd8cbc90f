export type { MockModelMessage, MockModelRequest, MockModelTool, MockModelToolResult } from "../trace/request-view.js";
import type { MockModelRequest } from "../trace/request-view.js";

/** One tool call the model makes. */
export interface MockModelToolCall {
  readonly name: string;
  /** JSON input; defaults to `{}`. For a `custom` tool, the raw text it is called with. */
  readonly input?: unknown;
  /** Call id; derived deterministically from the conversation when omitted. */
  readonly id?: string;
}

/** Token counts to report instead of the deterministic estimate. */
export interface MockModelUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/** A full reply: text, tool calls, or both (`text: ""` is allowed; neither is an error). */
export interface MockModelResponse {
  readonly text?: string;
  readonly toolCalls?: readonly MockModelToolCall[];
  readonly usage?: MockModelUsage;
  /** Reasoning parts in the provider's own shape, sent before the text (see {@link ReasoningPart}). */
  readonly reasoning?: readonly ReasoningPart[];
}

/**
 * A reasoning part as its provider sends it, kept whole: an Anthropic `thinking` block (with its
 * `signature`) or `redacted_thinking` block, an OpenAI Responses `reasoning` item (with its
 * `encrypted_content`). The client sends it back in its next request, and a real model may require it there,
 * so a replayed reply keeps it; each wire speaks only its own provider's parts.
 */
export type ReasoningPart = Readonly<Record<string, unknown>> & { readonly type: string };

/** A reply: plain text or a {@link MockModelResponse}. */
export type MockModelReply = string | MockModelResponse;

/** Computes the next reply from the request. */
export type MockModelResponder = (request: MockModelRequest, variant: MockModelVariant) => MockModelReply | Promise<MockModelReply>;

/**
 * What a responder knows of the run it answers in: the session's `seed` (a variant's, see `variants()`), and a
 * random generator seeded by it and the call's number, so the same (test, seed) always answers the same.
 */
export interface MockModelVariant {
  /** The session's seed; `undefined` when the session has none. */
  readonly seed: number | undefined;
  /** Numbers in [0, 1), the same for the same seed and call. Without a seed, seeded by the call's number alone. */
  random(): number;
}

/** What `mockModel()` accepts: a static reply, a responder, a script of replies (one per call), or options. */
export type MockModelInput = MockModelReply | MockModelResponder | readonly (MockModelReply | MockModelResponder)[] | MockModelOptions;

/** Options of `mockModel({ ... })`. */
export interface MockModelOptions {
  /** The model id agents and traces see. Default `mock-model`. */
  readonly modelId?: string;
  /** The provider id agents and traces see. Default `tooltrace`. */
  readonly provider?: string;
  /** The reply (repeated on every call), responder or script. Default `"Mock response"`. */
  readonly respond?: MockModelReply | MockModelResponder | readonly (MockModelReply | MockModelResponder)[];
}

/** A reply after validation: ids derived, usage estimated. */
export interface ResolvedReply {
  /** Reasoning parts in the provider's own shape (see {@link ReasoningPart}), when the model sent any. */
  readonly reasoning?: readonly ReasoningPart[];
  readonly text: string;
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly totalTokens: number };
}
