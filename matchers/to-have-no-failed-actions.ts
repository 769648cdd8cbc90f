import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";

/** No tool call failed or was rejected, even one the agent recovered from. */
export function toHaveNoFailedActions(this: MatcherContext, received: unknown): MatcherResult {
  const trace = readTrace(received);
  if (trace === undefined) return { pass: false, message: () => notATrace("toHaveNoFailedActions", received) };
  const failed = trace.calls.filter((call) => call.status === "failed" || call.status === "rejected");
  return {
    pass: failed.length === 0,
    message: () =>
      report(
        this,
        "toHaveNoFailedActions",
        "no failed tool calls",
        `${failed.length} failed: ${failed.map((call) => call.qualifiedName).join(", ")}`,
        trace.calls,
      ),
  };
}
