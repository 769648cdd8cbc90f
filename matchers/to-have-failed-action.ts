import { checkCount, countMatches, describeCount, type CountExpectation } from "./lib/count.js";
import { describeExpected, matchValue } from "./lib/match-value.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { checkToolName, notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/** Options of `toHaveFailedAction`. */
export interface FailedActionOptions {
  /** The error: a string is a substring of the message, a RegExp is tested against it, or an asymmetric matcher / predicate on `{ name, message }`. */
  readonly error?: unknown;
  readonly count?: CountExpectation;
}

/** A tool call failed (or was rejected by strict mode): of this tool, with this error, this many times. */
export function toHaveFailedAction(
  this: MatcherContext,
  received: unknown,
  name?: string | FailedActionOptions,
  options: FailedActionOptions = {},
): MatcherResult {
  if (name !== undefined && typeof name === "object") {
    options = name;
    name = undefined;
  }
  if (name !== undefined && (typeof name !== "string" || name === ""))
    throw usageError("toHaveFailedAction(name?, options?): `name` must be a tool name.");
  const count = checkCount("toHaveFailedAction", options.count);
  const trace = readTrace(received);
  if (trace === undefined) return { pass: false, message: () => notATrace("toHaveFailedAction", received) };
  if (name !== undefined) checkToolName("toHaveFailedAction", name, trace);

  const matching = trace.calls.filter((call) => {
    if (call.status !== "failed" && call.status !== "rejected") return false;
    if (name !== undefined && call.qualifiedName !== name) return false;
    if (!("error" in options)) return true;
    const expected = options.error;
    if (typeof expected === "string") return call.error?.message.includes(expected) ?? false;
    if (expected instanceof RegExp) return matchValue(this, expected, call.error?.message ?? "");
    return matchValue(this, expected, call.error);
  });
  const pass = countMatches(count, matching.length);
  const what = [`a failed call${name === undefined ? "" : ` to "${name}"`} ${describeCount(count)}`];
  if ("error" in options) what.push(`with error ${describeExpected(options.error)}`);
  return {
    pass,
    message: () =>
      report(
        this,
        "toHaveFailedAction",
        what.join(", "),
        `${matching.length} matching failed call${matching.length === 1 ? "" : "s"}`,
        trace.calls,
      ),
  };
}
