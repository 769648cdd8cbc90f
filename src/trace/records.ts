import type { HttpCall, Interaction, ModelCall, ToolCall, TraceError, Turn, TurnStatus, Usage } from "./types.js";
import { addUsage, ZERO_USAGE } from "./usage.js";
import { totalCost } from "./cost.js";

/** A record while its log still writes to it. Only the log (`log.ts`) holds records by this type. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The record behind a {@link Turn}. Its calls are views of the session's log, and every field is written by
 * the log: read it through the `Turn` interface.
 */
export class TurnRecord implements Turn {
  text = "";
  assistantTexts: readonly string[] = [];
  originalUserMessage?: string;
  results: Readonly<Record<string, unknown>> = {};
  readonly toolCalls: ToolCall[] = [];
  readonly modelCalls: ModelCall[] = [];
  readonly judgeCalls: ModelCall[] = [];
  readonly httpCalls: HttpCall[] = [];
  status: TurnStatus = "running";
  readonly violations: string[] = [];
  error?: TraceError;
  readonly startedAt = Date.now();
  durationMs = 0;
  /** Usage the agent reported itself; used only when no model call was traced. */
  reportedUsage: Usage | undefined;

  constructor(
    readonly index: number,
    public userMessage: string,
    /** Monotonic start on the session's clock. */
    readonly start: number,
    /** The session's tools, those the agent defined inline and handed a library during the turn included. */
    public tools: readonly string[] = [],
  ) {}

  get usage(): Usage {
    if (this.modelCalls.length === 0) return this.reportedUsage ?? ZERO_USAGE;
    let sum = ZERO_USAGE;
    for (const call of this.modelCalls) sum = addUsage(sum, call.usage);
    return sum;
  }

  get costUsd(): number | undefined {
    return totalCost([...this.modelCalls, ...this.judgeCalls]).costUsd;
  }

  get unpricedCalls(): number | undefined {
    return totalCost([...this.modelCalls, ...this.judgeCalls]).unpricedCalls;
  }

  /** Files `record` in the list of its kind: for the log, which writes every record (see `SessionLog.adopt`). */
  add<T extends Interaction>(record: T): T {
    const model = (record as Interaction as ModelCall).judge === undefined ? this.modelCalls : this.judgeCalls;
    const list: Interaction[] = record.kind === "tool" ? this.toolCalls : record.kind === "model" ? model : this.httpCalls;
    list.push(record);
    return record;
  }

  /** The turn's records of every kind, in the order they started. */
  get interactions(): Interaction[] {
    return [...this.toolCalls, ...this.modelCalls, ...this.httpCalls].sort((a, b) => a.seq - b.seq);
  }
}
