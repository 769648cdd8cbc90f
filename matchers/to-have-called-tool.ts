import type { ToolCallStatus } from "../src/trace/types.js";
import { checkCount, countMatches, describeCount, type CountExpectation } from "./lib/count.js";
import { describeExpected, matchValue } from "./lib/match-value.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";

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
  if (typeof name !== "string" || name === "") throw new TypeError("[tooltrace] toHaveCalledTool(name, options?): `name` must be the tool's name.");
  if (options === null || typeof options !== "object") throw new TypeError("[tooltrace] toHaveCalledTool: `options` must be an object { input?, output?, status?, count? }.");
  const unknown = Object.keys(options).filter((key) => !["input", "output", "status", "count"].includes(key));
  if (unknown.length > 0) throw new TypeError(`[tooltrace] toHaveCalledTool: unknown option ${unknown.map((k) => `\`${k}\``).join(", ")}; use input, output, status or count.`);
  const count = checkCount("toHaveCalledTool", options.count);
  const status = options.status ?? "completed";
  if (!STATUSES.has(status)) throw new TypeError(`[tooltrace] toHaveCalledTool: unknown status "${status}"; use completed, failed, rejected, pending or any.`);

  const trace = readTrace(received);
  if (trace === undefined) return { pass: false, message: () => notATrace("toHaveCalledTool", received) };
  const matching = trace.calls.filter(
    (call) =>
      call.qualifiedName === name &&
      (status === "any" || call.status === status) &&
      (!("input" in options) || matchValue(options.input, call.input)) &&
      (!("output" in options) || matchValue(options.output, call.output)),
  );
  const pass = countMatches(count, matching.length);
  const parts = [`"${name}" called ${describeCount(count)}`];
  if (status !== "any") parts.push(`with status "${status}"`);
  if ("input" in options) parts.push(`input ${describeExpected(options.input)}`);
  if ("output" in options) parts.push(`output ${describeExpected(options.output)}`);
  const sameName = trace.calls.filter((call) => call.qualifiedName === name).length;
  return {
    pass,
    message: () =>
      report(
        this,
        "toHaveCalledTool",
        parts.join(", "),
        `${matching.length} matching call${matching.length === 1 ? "" : "s"} (${sameName} call${sameName === 1 ? "" : "s"} to "${name}" in all)`,
        trace.calls,
      ),
  };
}
