import { checkCount, countMatches, describeCount, type CountExpectation } from "./lib/count.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { modelCallsSection } from "./lib/model-calls.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";

/** The turn (or session) made this many model calls: a number is exact, a function a predicate; default at least one. */
export function toHaveModelCalls(this: MatcherContext, received: unknown, count?: CountExpectation): MatcherResult {
  const expected = checkCount("toHaveModelCalls", count);
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveModelCalls (a turn or a session)", received) };
  const n = trace.turns.reduce((sum, turn) => sum + turn.modelCalls.length, 0);
  return {
    pass: countMatches(expected, n),
    message: () =>
      reportSections(
        this,
        "toHaveModelCalls",
        `${this.isNot ? "not " : ""}model called ${describeCount(expected)}`,
        `${n} model call${n === 1 ? "" : "s"}`,
        [modelCallsSection(trace.turns)],
      ),
  };
}
