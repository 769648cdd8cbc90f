import { toTraceError } from "./to-trace-error.js";
import type { ModelCall, ToolCall, ToolCallSource, ToolCallStatus, TraceError, Turn, TurnStatus, Usage } from "./types.js";
import { addUsage, ZERO_USAGE } from "./usage.js";

/** The mutable record behind a {@link ToolCall}; only the session writes to it. */
export class ToolCallRecord implements ToolCall {
  output?: unknown;
  error?: TraceError;
  status: ToolCallStatus = "pending";
  answeredBy?: ToolCallSource;
  durationMs?: number;
  readonly startedAt = Date.now();
  private readonly startedPerf = performance.now();

  constructor(
    readonly id: string,
    readonly tool: string,
    readonly path: readonly string[],
    readonly qualifiedName: string,
    public input: unknown,
    readonly turnIndex: number,
  ) {}

  complete(output: unknown): void {
    this.output = output;
    this.status = "completed";
    this.durationMs = performance.now() - this.startedPerf;
  }

  fail(error: unknown, status: "failed" | "rejected" = "failed"): void {
    this.error = toTraceError(error);
    this.status = status;
    this.durationMs = performance.now() - this.startedPerf;
  }
}

/** The mutable record behind a {@link Turn}. */
export class TurnRecord implements Turn {
  text = "";
  assistantTexts: string[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  readonly modelCalls: ModelCall[] = [];
  status: TurnStatus = "running";
  readonly violations: string[] = [];
  error?: TraceError;
  readonly startedAt = Date.now();
  durationMs = 0;
  private reportedUsage: Usage | undefined;
  private readonly startedPerf = performance.now();

  constructor(
    readonly index: number,
    readonly userMessage: string,
  ) {}

  get usage(): Usage {
    if (this.modelCalls.length === 0) return this.reportedUsage ?? ZERO_USAGE;
    return this.modelCalls.reduce((sum, call) => addUsage(sum, call.usage), ZERO_USAGE);
  }

  /** Usage the agent reported itself (used only when no model call was traced). */
  reportUsage(usage: Usage): void {
    this.reportedUsage = usage;
  }

  finish(status: "completed" | "failed", error?: unknown): void {
    this.status = status;
    if (error !== undefined) this.error = toTraceError(error);
    this.durationMs = performance.now() - this.startedPerf;
  }

  /** A plain, JSON-safe copy for reporters and `task.meta`. */
  toJSON(): Turn {
    return {
      index: this.index,
      userMessage: this.userMessage,
      text: this.text,
      assistantTexts: [...this.assistantTexts],
      toolCalls: this.toolCalls.map((call) => ({ ...call })),
      modelCalls: [...this.modelCalls],
      usage: this.usage,
      status: this.status,
      violations: [...this.violations],
      ...(this.error ? { error: this.error } : {}),
      startedAt: this.startedAt,
      durationMs: this.durationMs,
    };
  }
}
