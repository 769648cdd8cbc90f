import type { ToolCall } from "../src/trace/types.js";
import { describeExpected, matchValue } from "./lib/match-value.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { checkToolName, notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/** One expected step of `toHaveToolOrder`: a tool name, or a name with an input to match. */
export type ToolOrderEntry = string | { readonly tool: string; readonly input?: unknown };

/**
 * The calls appear in this order as a subsequence: other calls may sit between, and a name listed
 * twice needs two calls.
 */
export function toHaveToolOrder(this: MatcherContext, received: unknown, order: readonly ToolOrderEntry[]): MatcherResult {
  if (!Array.isArray(order) || order.length === 0)
    throw usageError("toHaveToolOrder(order): `order` must be a non-empty array of tool names or { tool, input }.");
  const entries = order.map((entry, i) => {
    if (typeof entry === "string") return { tool: entry } as { tool: string; input?: unknown };
    if (entry !== null && typeof entry === "object" && typeof entry.tool === "string") return entry;
    throw usageError(`toHaveToolOrder: entry ${i} must be a tool name or { tool, input }.`);
  });
  const trace = readTrace(received);
  if (trace === undefined) return { pass: false, message: () => notATrace("toHaveToolOrder", received) };
  for (const entry of entries) checkToolName("toHaveToolOrder", entry.tool, trace);

  let position = 0;
  let found = 0;
  for (const entry of entries) {
    const index = trace.calls.findIndex((call, i) => i >= position && fits(this, entry, call));
    if (index === -1) break;
    found += 1;
    position = index + 1;
  }
  const pass = found === entries.length;
  const describeEntry = (entry: { tool: string; input?: unknown }) =>
    "input" in entry ? `${entry.tool} ${describeExpected(entry.input)}` : entry.tool;
  const missing = entries[found];
  return {
    pass,
    message: () =>
      report(
        this,
        "toHaveToolOrder",
        `calls in order: ${entries.map(describeEntry).join(" → ")}`,
        pass
          ? "all of them, in that order"
          : `the first ${found} in order, then no "${missing ? describeEntry(missing) : ""}" after call ${position}`,
        trace.calls,
      ),
  };
}

function fits(context: MatcherContext, entry: { tool: string; input?: unknown }, call: ToolCall): boolean {
  return call.qualifiedName === entry.tool && (!("input" in entry) || matchValue(context, entry.input, call.input));
}
