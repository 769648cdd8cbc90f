import { oneLine } from "../src/exits/excerpt.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";

/**
 * The turn (or every turn of the session) completed, and nothing was rejected by tooltrace (strict mode,
 * call limit). A tool that failed and that the agent handled does not fail this check: assert on it with
 * `toHaveFailedAction`, or forbid it with `toHaveNoFailedActions`.
 */
export function toSucceed(this: MatcherContext, received: unknown): MatcherResult {
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toSucceed (a turn or a session)", received) };
  const problems: string[] = [];
  for (const turn of trace.turns) {
    if (turn.status === "failed")
      problems.push(
        `turn ${turn.index} failed: ${turn.error ? oneLine(`${turn.error.name}: ${withoutViolations(turn.error.message, turn.violations)}`) : "unknown error"}`,
      );
    if (turn.status === "running") problems.push(`turn ${turn.index} is still running`);
    problems.push(...turn.violations);
  }
  const pass = problems.length === 0;
  return {
    pass,
    message: () =>
      report(
        this,
        "toSucceed",
        trace.kind === "turn" ? "the turn to complete with nothing rejected" : "every turn to complete with nothing rejected",
        pass ? "it did" : `${problems.length} problem${problems.length === 1 ? "" : "s"}`,
        trace.calls,
        pass ? undefined : problems.map((p) => `- ${p}`).join("\n"),
      ),
  };
}

/** An error that carries a violation listed beside it (a refused `fetch`: "fetch failed: <the refusal>") names it once. */
function withoutViolations(text: string, violations: readonly string[]): string {
  for (const violation of violations) {
    const first = violation.replace(/^\[tooltrace\] /, "").split("\n")[0] ?? "";
    if (first !== "" && text.includes(first)) return `${text.replace(`: ${first}`, "").replace(first, "").trim()} (the violation below)`;
  }
  return text;
}
