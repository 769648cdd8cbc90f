import { oneLine } from "../src/exits/excerpt.js";
import { faultOutcomes, faultsSection, unfinished } from "./lib/faults.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";

/**
 * The agent met at least one injected fault (`faults` on the session or an HTTP mock) and recovered from
 * each: a later call of the same kind (the same URL for HTTP) got through, and the turn completed with
 * nothing left running. Its retries are in the message, fault by fault.
 */
export function toHaveRecovered(this: MatcherContext, received: unknown): MatcherResult {
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveRecovered (a turn or a session)", received) };
  const outcomes = faultOutcomes(trace.turns);
  const problems: string[] = [];
  if (outcomes.length === 0) problems.push("no fault was injected, so there was nothing to recover from");
  for (const { call, recoveredBy } of outcomes) if (recoveredBy === undefined) problems.push(`nothing got through after #${call.seq}`);
  for (const turn of trace.turns) {
    const problem = unfinished(turn);
    if (problem !== undefined) problems.push(problem);
    if (turn.status === "failed") problems.push(`turn ${turn.index} failed: ${oneLine(`${turn.error?.name}: ${turn.error?.message}`)}`);
  }
  const pass = problems.length === 0;
  return {
    pass,
    message: () =>
      reportSections(
        this,
        "toHaveRecovered",
        `${this.isNot ? "not " : ""}to recover from every injected fault (a retry got through, the turn completed)`,
        pass ? "it recovered" : problems.join("; "),
        [faultsSection(outcomes)],
      ),
  };
}
