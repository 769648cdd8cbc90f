/**
 * tooltrace's matchers, runner-neutral: pass them to `expect.extend` (Vitest or Jest).
 * The Vitest plugin and `tooltrace/jest` register them for you.
 *
 * @module tooltrace/matchers
 */
export { toHaveCalledTool, type CalledToolOptions } from "./to-have-called-tool.js";
export { toHaveToolOrder, type ToolOrderEntry } from "./to-have-tool-order.js";
export { toHaveFailedAction, type FailedActionOptions } from "./to-have-failed-action.js";
export { toHaveMessageIncluding } from "./to-have-message-including.js";
export { toSucceed } from "./to-succeed.js";
export { toHaveNoFailedActions } from "./to-have-no-failed-actions.js";
export { toHaveUsedNoTools } from "./to-have-used-no-tools.js";
export { toHaveAtMostToolCalls } from "./to-have-at-most-tool-calls.js";
export { toHaveModelCalls } from "./to-have-model-calls.js";
export { toHaveUsageAtMost, type UsageLimit } from "./to-have-usage-at-most.js";
export { toHaveOfferedTool } from "./to-have-offered-tool.js";
export { toHaveResult } from "./to-have-result.js";
export { toHaveRequested, type RequestedOptions } from "./to-have-requested.js";
export {
  toMatchTrajectory,
  type TrajectoryOptions,
  type TrajectoryStep,
  type TrajectoryOrder,
  type ArgumentsMode,
} from "./to-match-trajectory.js";
export { toHaveRecovered } from "./to-have-recovered.js";
export { toHaveGivenUpCleanly, type GivenUpOptions } from "./to-have-given-up-cleanly.js";
export { toSatisfyJudge } from "./to-satisfy-judge.js";
export type { Judge, JudgeOptions, JudgeResult, JudgeSubject } from "./lib/judge.js";
export {
  toMatchTraceSnapshot,
  toMatchInlineTraceSnapshot,
  type TraceSnapshotMatcherOptions,
  type TraceSnapshotOptions,
  type SnapshotContext,
  type SnapshotState,
} from "./to-match-trace-snapshot.js";
export type { CountExpectation } from "./lib/count.js";
export type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
export type { TooltraceMatchers } from "./types.js";
export { matchers } from "./all.js";
