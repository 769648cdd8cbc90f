/**
 * tooltrace's matchers, runner-neutral: pass them to `expect.extend` (Vitest or Jest).
 * The Vitest plugin and `tooltrace/jest` register them for you.
 *
 * @module tooltrace/matchers
 */
import { matchers } from "./all.js";
import type { toHaveCalledTool as toHaveCalledToolMatcher } from "./to-have-called-tool.js";
import type { toHaveToolOrder as toHaveToolOrderMatcher } from "./to-have-tool-order.js";
import type { toHaveFailedAction as toHaveFailedActionMatcher } from "./to-have-failed-action.js";
import type { toHaveMessageIncluding as toHaveMessageIncludingMatcher } from "./to-have-message-including.js";
import type { toSucceed as toSucceedMatcher } from "./to-succeed.js";
import type { toHaveNoFailedActions as toHaveNoFailedActionsMatcher } from "./to-have-no-failed-actions.js";
import type { toHaveUsedNoTools as toHaveUsedNoToolsMatcher } from "./to-have-used-no-tools.js";
import type { toHaveAtMostToolCalls as toHaveAtMostToolCallsMatcher } from "./to-have-at-most-tool-calls.js";
import type { toHaveModelCalls as toHaveModelCallsMatcher } from "./to-have-model-calls.js";
import type { toHaveUsageAtMost as toHaveUsageAtMostMatcher } from "./to-have-usage-at-most.js";
import type { toHaveOfferedTool as toHaveOfferedToolMatcher } from "./to-have-offered-tool.js";
import type { toHaveResult as toHaveResultMatcher } from "./to-have-result.js";
import type { toHaveRequested as toHaveRequestedMatcher } from "./to-have-requested.js";
import type { toMatchTrajectory as toMatchTrajectoryMatcher } from "./to-match-trajectory.js";
import type { toHaveRecovered as toHaveRecoveredMatcher } from "./to-have-recovered.js";
import type { toHaveGivenUpCleanly as toHaveGivenUpCleanlyMatcher } from "./to-have-given-up-cleanly.js";
import type { toSatisfyJudge as toSatisfyJudgeMatcher } from "./to-satisfy-judge.js";
import type { toMatchTraceSnapshot as toMatchTraceSnapshotMatcher } from "./to-match-trace-snapshot.js";
import type { toMatchInlineTraceSnapshot as toMatchInlineTraceSnapshotMatcher } from "./to-match-trace-snapshot.js";

export type { CalledToolOptions } from "./to-have-called-tool.js";
export type { ToolOrderEntry } from "./to-have-tool-order.js";
export type { FailedActionOptions } from "./to-have-failed-action.js";
export type { UsageLimit } from "./to-have-usage-at-most.js";
export type { RequestedOptions } from "./to-have-requested.js";
export type {
  TrajectoryOptions,
  TrajectoryStep,
  TrajectoryOrder,
  ArgumentsMode,
} from "./to-match-trajectory.js";
export type { GivenUpOptions } from "./to-have-given-up-cleanly.js";
export type { Judge, JudgeOptions, JudgeResult, JudgeSubject } from "./lib/judge.js";
export type {
  TraceSnapshotMatcherOptions,
  TraceSnapshotOptions,
  SnapshotContext,
  SnapshotState,
} from "./to-match-trace-snapshot.js";
export type { CountExpectation } from "./lib/count.js";
export type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
export type { TooltraceMatchers } from "./types.js";
export { matchers };

// Each matcher as `expect.extend` registers it: its result through the exit that redacts what it hands the runner.
/**
 * The tool was called (with this input, output and status, this many times).
 * `name` is the qualified name for a subagent's tool (`researcher/list_tasks`).
 */
export const toHaveCalledTool: typeof toHaveCalledToolMatcher = matchers.toHaveCalledTool;
/**
 * The calls appear in this order as a subsequence: other calls may sit between, and a name listed
 * twice needs two calls.
 */
export const toHaveToolOrder: typeof toHaveToolOrderMatcher = matchers.toHaveToolOrder;
/** A tool call failed (or was rejected by strict mode): of this tool, with this error, this many times. */
export const toHaveFailedAction: typeof toHaveFailedActionMatcher = matchers.toHaveFailedAction;
/**
 * What the agent said to the user (its final text and the `assistantTexts` it returned, in the turn or in any
 * turn of the session) includes the text or matches the RegExp. The model's replies do not count: an agent
 * that drops them has a bug this should catch. When a turn's agent said nothing at all although the model
 * replied with text, the matcher throws (with `.not` too) rather than pass by accident.
 */
export const toHaveMessageIncluding: typeof toHaveMessageIncludingMatcher = matchers.toHaveMessageIncluding;
/**
 * The turn (or every turn of the session) completed, and nothing was rejected by tooltrace (strict mode,
 * call limit). A tool that failed and that the agent handled does not fail this check: assert on it with
 * `toHaveFailedAction`, or forbid it with `toHaveNoFailedActions`.
 */
export const toSucceed: typeof toSucceedMatcher = matchers.toSucceed;
/** No tool call failed or was rejected, even one the agent recovered from. */
export const toHaveNoFailedActions: typeof toHaveNoFailedActionsMatcher = matchers.toHaveNoFailedActions;
/** The agent made no tool call at all. */
export const toHaveUsedNoTools: typeof toHaveUsedNoToolsMatcher = matchers.toHaveUsedNoTools;
/** The agent made at most `max` tool calls (of the named tool, when given). */
export const toHaveAtMostToolCalls: typeof toHaveAtMostToolCallsMatcher = matchers.toHaveAtMostToolCalls;
/** The turn (or session) made this many model calls: a number is exact, a function a predicate; default at least one. */
export const toHaveModelCalls: typeof toHaveModelCallsMatcher = matchers.toHaveModelCalls;
/** The turn's (or session's) token usage stays within the limit. */
export const toHaveUsageAtMost: typeof toHaveUsageAtMostMatcher = matchers.toHaveUsageAtMost;
/** Some model call of the turn (or session) was offered the tool. */
export const toHaveOfferedTool: typeof toHaveOfferedToolMatcher = matchers.toHaveOfferedTool;
/**
 * A middleware's `afterEval` kept a result under `name` (in the turn, or in some turn of a session), matching
 * `expected` when given, with subset semantics (`{ pass: true }` matches `{ pass: true, answer: "..." }`).
 */
export const toHaveResult: typeof toHaveResultMatcher = matchers.toHaveResult;
/**
 * The turn (or session) made an HTTP request to `url`: a full URL, an MSW-style pattern (`https://api.test/users/:id`,
 * a path alone on any host) or a RegExp, with this method and body, this many times. LLM calls are not HTTP
 * requests here: assert on them with `toHaveModelCalls`.
 */
export const toHaveRequested: typeof toHaveRequestedMatcher = matchers.toHaveRequested;
/**
 * The turn's (or the whole session's) calls form this trajectory under the match mode `order`. A failure
 * prints the expected trajectory beside the recorded one, aligned, with what is missing, extra, moved or
 * different (at a JSON pointer).
 *
 * @example
 * ```ts
 * expect(turn).toMatchTrajectory(["search_flights", { tool: "book_flight", input: { flight_id: "FL123" } }]);
 * expect(session).toMatchTrajectory(["lookup", "refund"], { order: "superset", args: { lookup: "ignore" } });
 * ```
 */
export const toMatchTrajectory: typeof toMatchTrajectoryMatcher = matchers.toMatchTrajectory;
/**
 * The agent met at least one injected fault (`faults` on the session or an HTTP mock) and recovered from
 * each: a later call of the same kind (the same URL for HTTP) got through, and the turn completed with
 * nothing left running. Its retries are in the message, fault by fault.
 */
export const toHaveRecovered: typeof toHaveRecoveredMatcher = matchers.toHaveRecovered;
/**
 * The agent met an injected fault it could not get past, and stopped cleanly: after the last fault nothing
 * of its kind got through, nothing is left running or arrived late, and the turn completed (or failed with
 * the `error` given).
 */
export const toHaveGivenUpCleanly: typeof toHaveGivenUpCleanlyMatcher = matchers.toHaveGivenUpCleanly;
/**
 * The judge scores the turn (or a session's last turn) at least `threshold` (default 1). Asynchronous:
 * `await expect(turn).toSatisfyJudge(judge, { threshold: 0.7 })`. The score and its reason are kept on the turn
 * (the viewer shows them; trials average them), and a failure shows the reason and a model judge's prompt.
 */
export const toSatisfyJudge: typeof toSatisfyJudgeMatcher = matchers.toSatisfyJudge;
/**
 * The turn's (or session's) trace matches the snapshot stored in the test's snapshot file, on the runner's own
 * snapshot state: written the first time, updated with `-u`, reported obsolete when no test checks it. The
 * snapshot keeps what is stable from run to run (see {@link TraceSnapshotOptions}); a failure is a structural
 * diff per turn.
 */
export const toMatchTraceSnapshot: typeof toMatchTraceSnapshotMatcher = matchers.toMatchTraceSnapshot;
/**
 * {@link toMatchTraceSnapshot}, with the snapshot written into the test file by the runner: as the only
 * argument, or after the options (`toMatchInlineTraceSnapshot({ models: false }, \`...\`)`), as Vitest's own
 * `toMatchInlineSnapshot(properties, snapshot)` takes them.
 */
export const toMatchInlineTraceSnapshot: typeof toMatchInlineTraceSnapshotMatcher = matchers.toMatchInlineTraceSnapshot;
