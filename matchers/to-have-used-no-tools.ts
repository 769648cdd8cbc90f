import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";

/** The agent made no tool call at all. */
export function toHaveUsedNoTools(this: MatcherContext, received: unknown): MatcherResult {
  const trace = readTrace(received);
  if (trace === undefined) return { pass: false, message: () => notATrace("toHaveUsedNoTools", received) };
  const n = trace.calls.length;
  return {
    pass: n === 0,
    message: () => report(this, "toHaveUsedNoTools", "no tool calls", `${n} tool call${n === 1 ? "" : "s"}`, trace.calls),
  };
}
