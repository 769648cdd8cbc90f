import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { matchValue } from "./lib/match-value.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { diffSection, reportSections } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/**
 * A middleware's `afterEval` kept a result under `name` (in the turn, or in some turn of a session), matching
 * `expected` when given, with subset semantics (`{ pass: true }` matches `{ pass: true, answer: "..." }`).
 */
export function toHaveResult(this: MatcherContext, received: unknown, name: string, expected?: unknown): MatcherResult {
  if (typeof name !== "string" || name === "") throw usageError("toHaveResult(name, expected?): `name` is the middleware's name.");
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveResult (a turn or a session)", received) };
  const found = trace.turns.map((turn) => turn.results?.[name]).filter((result) => result !== undefined);
  const pass = found.some((result) => expected === undefined || matchValue(this, expected, result));
  const wanted = `${this.isNot ? "no " : ""}result of middleware "${name}"${expected === undefined ? "" : " matching"}`;
  const names = [...new Set(trace.turns.flatMap((turn) => Object.keys(turn.results ?? {})))];
  const got =
    found.length === 0
      ? `no result "${name}" (results: ${names.length === 0 ? "none" : names.map((n) => `"${n}"`).join(", ")})`
      : `${found.length} result${found.length === 1 ? "" : "s"} "${name}"`;
  return {
    pass,
    message: () =>
      reportSections(
        this,
        "toHaveResult",
        wanted,
        got,
        found.length > 0 && expected !== undefined
          ? [diffSection(this, "Closest result:", expected, found.at(-1))]
          : found.length > 0
            ? [`Result:\n${this.utils.printReceived(found.at(-1))}`]
            : [],
      ),
  };
}
