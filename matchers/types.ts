import type { CalledToolOptions } from "./to-have-called-tool.js";
import type { FailedActionOptions } from "./to-have-failed-action.js";
import type { ToolOrderEntry } from "./to-have-tool-order.js";

/**
 * The matchers as `expect(x)` sees them, for type augmentation. `R` is what each returns
 * (`void` under Vitest's `Assertion`, the runner's own type under Jest).
 */
export interface TooltraceMatchers<R = unknown> {
  /** The tool was called (with this input, output, status, count). Status defaults to `completed`. */
  toHaveCalledTool(name: string, options?: CalledToolOptions): R;
  /** The calls appear in this order, others may sit between. */
  toHaveToolOrder(order: readonly ToolOrderEntry[]): R;
  /** A tool call failed (of this tool, with this error). */
  toHaveFailedAction(name?: string | FailedActionOptions, options?: FailedActionOptions): R;
  /** Some assistant text includes this text or matches this RegExp. */
  toHaveMessageIncluding(expected: string | RegExp): R;
  /** The turn completed and nothing was rejected. */
  toSucceed(): R;
  /** No tool call failed. */
  toHaveNoFailedActions(): R;
  /** No tool was called. */
  toHaveUsedNoTools(): R;
  /** At most `max` tool calls (of `tool`, when given). */
  toHaveAtMostToolCalls(max: number, tool?: string): R;
}
