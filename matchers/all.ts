import { throughExit } from "./lib/through-exit.js";
import { toHaveAtMostToolCalls } from "./to-have-at-most-tool-calls.js";
import { toHaveCalledTool } from "./to-have-called-tool.js";
import { toHaveFailedAction } from "./to-have-failed-action.js";
import { toHaveMessageIncluding } from "./to-have-message-including.js";
import { toHaveNoFailedActions } from "./to-have-no-failed-actions.js";
import { toHaveToolOrder } from "./to-have-tool-order.js";
import { toHaveUsedNoTools } from "./to-have-used-no-tools.js";
import { toSucceed } from "./to-succeed.js";
import { toHaveModelCalls } from "./to-have-model-calls.js";
import { toHaveOfferedTool } from "./to-have-offered-tool.js";
import { toHaveUsageAtMost } from "./to-have-usage-at-most.js";
import { toHaveResult } from "./to-have-result.js";
import { toHaveRequested } from "./to-have-requested.js";
import { toMatchTrajectory } from "./to-match-trajectory.js";
import { toHaveRecovered } from "./to-have-recovered.js";
import { toHaveGivenUpCleanly } from "./to-have-given-up-cleanly.js";
import { toSatisfyJudge } from "./to-satisfy-judge.js";
import { toMatchInlineTraceSnapshot, toMatchTraceSnapshot } from "./to-match-trace-snapshot.js";

/** Every tooltrace matcher, ready for `expect.extend(matchers)`: each result through the exit that redacts it. */
export const matchers = throughExit({
  toHaveCalledTool,
  toHaveToolOrder,
  toHaveFailedAction,
  toHaveMessageIncluding,
  toSucceed,
  toHaveNoFailedActions,
  toHaveUsedNoTools,
  toHaveAtMostToolCalls,
  toHaveModelCalls,
  toHaveUsageAtMost,
  toHaveOfferedTool,
  toHaveResult,
  toHaveRequested,
  toMatchTrajectory,
  toHaveRecovered,
  toHaveGivenUpCleanly,
  toSatisfyJudge,
  toMatchTraceSnapshot,
  toMatchInlineTraceSnapshot,
});
