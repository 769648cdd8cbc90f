import type { ToolCall, ToolCallStatus } from "../src/trace/types.js";
import { checkCount, countMatches, describeCount, type CountExpectation } from "./lib/count.js";
import { describeExpected, matchValue } from "./lib/match-value.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { checkToolName, notATrace, readTrace } from "./lib/read-trace.js";
import { diffSection, report } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/** Options of `toHaveCalledTool`. */
export interface CalledToolOptions {
  /** Matches the input like `toMatchObject`; also a RegExp, a predicate, or an asymmetric matcher. */
  readonly input?: unknown;
  /** Matches the output the same way. */
  readonly output?: unknown;
  /** The call's status; default `completed`. `any` accepts every status. */
  readonly status?: ToolCallStatus | "any";
  /** A number is exact, a function is a predicate; without it, at least one call. */
  readonly count?: CountExpectation;
}

const STATUSES = new Set(["pending", "completed", "failed", "rejected", "any"]);

/**
 * The tool was called (with this input, output and status, this many times).
 * `name` is the qualified name for a subagent's tool (`researcher/list_tasks`).
 */
export function toHaveCalledTool(this: MatcherContext, received: unknown, name: string, options: CalledToolOptions = {}): MatcherResult {
  if (typeof name !== "string" || name === "") throw usageError("toHaveCalledTool(name, options?): `name` must be the tool's name.");
  if (options === null || typeof options !== "object")
    throw usageError("toHaveCalledTool: `options` must be an object { input?, output?, status?, count? }.");
  const unknown = Object.keys(options).filter((key) => !["input", "output", "status", "count"].includes(key));
  if (unknown.length > 0)
    throw usageError(`toHaveCalledTool: unknown option ${unknown.map((k) => `\`${k}\``).join(", ")}; use input, output, status or count.`);
  const count = checkCount("toHaveCalledTool", options.count);
  const status = options.status ?? "completed";
  if (!STATUSES.has(status))
    throw usageError(`toHaveCalledTool: unknown status "${status}"; use completed, failed, rejected, pending or any.`);

  const trace = readTrace(received);
  if (trace === undefined) return { pass: false, message: () => notATrace("toHaveCalledTool", received) };
  checkToolName("toHaveCalledTool", name, trace);
  const matching = trace.calls.filter(
    (call) =>
      call.qualifiedName === name &&
      (status === "any" || call.status === status) &&
      (!("input" in options) || matchValue(this, options.input, call.input)) &&
      (!("output" in options) || matchValue(this, options.output, call.output)),
  );
  const pass = countMatches(count, matching.length);
  // What was expected and what came closest are worked out only for a message that is shown.
  const message = () => {
    const parts = [`"${name}" called ${describeCount(count)}`];
    if (status !== "any") parts.push(`with status "${status}"`);
    if ("input" in options) parts.push(`input ${describeExpected(options.input)}`);
    if ("output" in options) parts.push(`output ${describeExpected(options.output)}`);
    const sameName = trace.calls.filter((call) => call.qualifiedName === name);
    return report(
      this,
      "toHaveCalledTool",
      parts.join(", "),
      `${matching.length} matching call${matching.length === 1 ? "" : "s"} (${sameName.length} call${sameName.length === 1 ? "" : "s"} to "${name}" in all)`,
      trace.calls,
      pass || this.isNot ? undefined : closestDiff(this, options, sameName, trace.calls),
    );
  };
  return { pass, message };
}

/** When input or output was expected: the diff against the call of that tool that came closest. */
function closestDiff(
  context: MatcherContext,
  options: CalledToolOptions,
  candidates: readonly ToolCall[],
  all: readonly ToolCall[],
): string | undefined {
  if (candidates.length === 0 || !("input" in options || "output" in options)) return undefined;
  const score = (call: ToolCall) =>
    (["input", "output"] as const).filter((key) => key in options && matchValue(context, options[key], call[key])).length +
    (options.status === undefined || options.status === "any" || call.status === options.status ? 1 : 0);
  const closest = candidates.reduce((best, call) => (score(call) > score(best) ? call : best));
  const sections = (["input", "output"] as const).filter((key) => key in options && !matchValue(context, options[key], closest[key]));
  if (sections.length === 0) return undefined;
  return sections
    .map((key) =>
      diffSection(context, `Closest call (#${all.indexOf(closest) + 1}), ${key}:`, options[key], subsetLike(closest[key], options[key])),
    )
    .join("\n\n");
}

/** The actual value cut down to the keys the expectation lists (as `toMatchObject`'s diff does), so extras do not clutter it. */
function subsetLike(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((item, i) => subsetLike(item, expected[i]));
  if (!isPlainObject(actual) || !isPlainObject(expected)) return actual;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(actual)) if (key in expected) result[key] = subsetLike(actual[key], expected[key]);
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === "object" &&
    (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
  );
}
