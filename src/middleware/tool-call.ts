import type { ToolCallRecord } from "../trace/records.js";
import type { ToolCall, ToolCallSource, Turn } from "../trace/types.js";

/** What one step of the tool-call chain sees. */
export interface ToolCallContext {
  readonly tool: string;
  readonly path: readonly string[];
  readonly qualifiedName: string;
  /** The input as the agent sent it (steps may pass a rewritten one to `next`). */
  readonly input: unknown;
  /** The trace record of this call, as it stands. */
  readonly call: ToolCall;
  readonly turn: Turn;
}

/**
 * One step around a tool call, Koa-style: answer it (return or throw without calling `next`), or call
 * `next(input)` to go on to the next step and finally the real tool. May return a value or a promise.
 */
export type ToolCallStep = (context: ToolCallContext, next: (input: unknown) => unknown) => unknown;

/** Records which step answered a call, for the trace. */
export function answeredBy(context: ToolCallContext, source: ToolCallSource): void {
  (context.call as ToolCallRecord).answeredBy = source;
}

/** Marks a call as refused without running (strict mode): it will be recorded as `rejected`. */
export function markRejected(context: ToolCallContext): void {
  (context.call as ToolCallRecord).status = "rejected";
}

/** Runs `steps` in order around `terminal`. */
export function runToolCallChain(steps: readonly ToolCallStep[], context: ToolCallContext, terminal: (input: unknown) => unknown): unknown {
  const dispatch = (index: number, input: unknown): unknown => {
    const step = steps[index];
    if (step === undefined) return terminal(input);
    return step(context, (next) => dispatch(index + 1, next));
  };
  return dispatch(0, context.input);
}
