import type { CalledToolOptions } from "./to-have-called-tool.js";
import type { FailedActionOptions } from "./to-have-failed-action.js";
import type { ToolOrderEntry } from "./to-have-tool-order.js";
import type { CountExpectation } from "./lib/count.js";
import type { UsageLimit } from "./to-have-usage-at-most.js";
import type { RequestedOptions } from "./to-have-requested.js";
import type { GivenUpOptions } from "./to-have-given-up-cleanly.js";
import type { Judge, JudgeOptions } from "./lib/judge.js";
import type { TrajectoryOptions, TrajectoryStep } from "./to-match-trajectory.js";
import type { TraceSnapshotMatcherOptions } from "./to-match-trace-snapshot.js";

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
  /** The agent met injected faults (`faults`) and recovered from each: a retry got through, the turn completed. */
  toHaveRecovered(): R;
  /** The agent met an injected fault it could not get past and stopped cleanly (the turn completed, or failed with `error`). */
  toHaveGivenUpCleanly(options?: GivenUpOptions): R;
  /** The judge scores the turn at least `threshold` (default 1); asynchronous: `await expect(turn).toSatisfyJudge(judge)`. */
  toSatisfyJudge(judge: Judge, options?: JudgeOptions): Promise<R>;
  /** The turn completed and nothing was rejected. */
  toSucceed(): R;
  /** No tool call failed. */
  toHaveNoFailedActions(): R;
  /** No tool was called. */
  toHaveUsedNoTools(): R;
  /** At most `max` tool calls (of `tool`, when given). */
  toHaveAtMostToolCalls(max: number, tool?: string): R;
  /** The model was called this many times (exact or predicate; default at least once). */
  toHaveModelCalls(count?: CountExpectation): R;
  /** Token usage within the limit: a number of total tokens, or per count. */
  toHaveUsageAtMost(limit: UsageLimit): R;
  /** Some model call was offered this tool. */
  toHaveOfferedTool(name: string): R;
  /** A middleware's `afterEval` kept a result under `name`, matching `expected` (subset) when given. */
  toHaveResult(name: string, expected?: unknown): R;
  /** An HTTP request to this URL, pattern or RegExp was made (with this method and body, this many times). */
  toHaveRequested(url: string | RegExp, options?: RequestedOptions): R;
  /** The calls form this trajectory: `strict` (default), `unordered`, `subset` or `superset`; inputs `exact` by default. */
  toMatchTrajectory(expected: readonly TrajectoryStep[], options?: TrajectoryOptions): R;
  /** The trace matches its snapshot in the test's snapshot file (`-u` updates it); a failure is a structural diff. */
  toMatchTraceSnapshot(options?: TraceSnapshotMatcherOptions): R;
  /** The trace matches the inline snapshot written as the first argument (filled in by the runner). */
  toMatchInlineTraceSnapshot(inlineSnapshot?: string): R;
  /** The same, with options first; the runner writes the snapshot after them. */
  toMatchInlineTraceSnapshot(options: TraceSnapshotMatcherOptions, inlineSnapshot?: string): R;
}
