import { toTraceError } from "./to-trace-error.js";
import type { HttpCall, Interaction, ModelCall, ToolCall, TraceError, Turn, TurnStatus, Usage } from "./types.js";
import { addUsage, ZERO_USAGE } from "./usage.js";

/** A record while the session still writes to it. Only the session and its chain hold this type. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The mutable record behind a {@link Turn}. Its calls are views of the session's log. */
export class TurnRecord implements Turn {
  text = "";
  assistantTexts: string[] = [];
  originalUserMessage?: string;
  results: Readonly<Record<string, unknown>> = {};
  readonly toolCalls: Mutable<ToolCall>[] = [];
  readonly modelCalls: Mutable<ModelCall>[] = [];
  readonly httpCalls: Mutable<HttpCall>[] = [];
  status: TurnStatus = "running";
  readonly violations: string[] = [];
  error?: TraceError;
  readonly startedAt = Date.now();
  durationMs = 0;
  /** Usage the agent reported itself; used only when no model call was traced. */
  reportedUsage: Usage | undefined;
  /** Monotonic start on the session's clock. */
  readonly start: number;

  constructor(
    readonly index: number,
    public userMessage: string,
    start: number,
    readonly tools: readonly string[] = [],
  ) {
    this.start = start;
  }

  get usage(): Usage {
    if (this.modelCalls.length === 0) return this.reportedUsage ?? ZERO_USAGE;
    let sum = ZERO_USAGE;
    for (const call of this.modelCalls) sum = addUsage(sum, call.usage);
    return sum;
  }

  /** The turn's records of every kind, in the order they started. */
  get interactions(): Interaction[] {
    return [...this.toolCalls, ...this.modelCalls, ...this.httpCalls].sort((a, b) => a.seq - b.seq);
  }

  /** A middleware's `beforeEval` rewrote the message: the turn keeps both. */
  rewriteMessage(message: string): void {
    this.originalUserMessage ??= this.userMessage;
    this.userMessage = message;
  }

  finish(status: "completed" | "failed", durationMs: number, error?: unknown): void {
    this.status = status;
    if (error !== undefined) this.error = toTraceError(error);
    this.durationMs = durationMs;
  }
}
