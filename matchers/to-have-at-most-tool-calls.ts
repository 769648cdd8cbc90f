import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { checkToolName, notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/** The agent made at most `max` tool calls (of the named tool, when given). */
export function toHaveAtMostToolCalls(this: MatcherContext, received: unknown, max: number, tool?: string): MatcherResult {
  if (!Number.isInteger(max) || max < 0) throw usageError("toHaveAtMostToolCalls(max, tool?): `max` must be a non-negative integer.");
  if (tool !== undefined && typeof tool !== "string") throw usageError("toHaveAtMostToolCalls(max, tool?): `tool` must be a tool name.");
  const trace = readTrace(received);
  if (trace === undefined) return { pass: false, message: () => notATrace("toHaveAtMostToolCalls", received) };
  if (tool !== undefined) checkToolName("toHaveAtMostToolCalls", tool, trace);
  const n = trace.calls.filter((call) => tool === undefined || call.qualifiedName === tool).length;
  const what = tool === undefined ? "tool calls" : `calls to "${tool}"`;
  return { pass: n <= max, message: () => report(this, "toHaveAtMostToolCalls", `at most ${max} ${what}`, `${n} ${what}`, trace.calls) };
}
