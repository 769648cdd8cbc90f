import type { MockModelRequest } from "./request-view.js";
import type { AnswerSource, HttpExchange, ModelCall, ModelToolCall, TraceError, Usage } from "./types.js";

/** What a model call answered outside any session was, and what came of it. */
export interface DetachedModelCall {
  readonly startedAt: number;
  readonly durationMs: number;
  readonly answeredBy: AnswerSource;
  readonly provider: string;
  readonly model: string;
  readonly request: MockModelRequest;
  readonly streamed: boolean;
  readonly step: number | undefined;
  readonly http: HttpExchange | undefined;
  readonly status: "completed" | "failed";
  readonly reply: { readonly text: string; readonly toolCalls: readonly ModelToolCall[] };
  readonly usage: Usage;
  readonly error: TraceError | undefined;
}

/**
 * A model call answered outside any session (the wire mock on its own), as one finished record: it belongs
 * to no turn (`turnIndex` -1) and no log (`seq` 0).
 */
export function detachedModelCall(call: DetachedModelCall): ModelCall {
  return {
    seq: 0,
    kind: "model",
    turnIndex: -1,
    startedAt: call.startedAt,
    start: 0,
    end: call.durationMs,
    durationMs: call.durationMs,
    status: call.status,
    answeredBy: call.answeredBy,
    ...(call.error !== undefined ? { error: call.error } : {}),
    provider: call.provider,
    model: call.model,
    path: [],
    request: call.request,
    reply: call.reply,
    streamed: call.streamed,
    usage: call.usage,
    ...(call.step !== undefined ? { step: call.step } : {}),
    ...(call.http !== undefined ? { http: call.http } : {}),
  };
}
