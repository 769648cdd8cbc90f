import { oneLine } from "../src/exits/excerpt.js";
import { faultOutcomes, faultsSection, unfinished } from "./lib/faults.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";

/** Options of `toHaveGivenUpCleanly`. */
export interface GivenUpOptions {
  /**
   * The agent may let the error out (the turn fails) when its message includes this text or matches this
   * RegExp: the provider's error as its SDK reports it. Without it, the turn must complete (the agent
   * caught the error and answered).
   */
  readonly error?: string | RegExp;
}

/**
 * The agent met an injected fault it could not get past, and stopped cleanly: after the last fault nothing
 * of its kind got through, nothing is left running or arrived late, and the turn completed (or failed with
 * the `error` given).
 */
export function toHaveGivenUpCleanly(this: MatcherContext, received: unknown, options: GivenUpOptions = {}): MatcherResult {
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveGivenUpCleanly (a turn or a session)", received) };
  const outcomes = faultOutcomes(trace.turns);
  const problems: string[] = [];
  const last = outcomes.at(-1);
  if (last === undefined) problems.push("no fault was injected, so there was nothing to give up on");
  else if (last.recoveredBy !== undefined) problems.push(`it did not give up: #${last.recoveredBy.seq} got through after the last fault`);
  for (const turn of trace.turns) {
    const problem = unfinished(turn);
    if (problem !== undefined) problems.push(problem);
    if (turn.status !== "failed") continue;
    const error = `${turn.error?.name}: ${turn.error?.message}`;
    if (options.error === undefined)
      problems.push(`turn ${turn.index} failed (${oneLine(error)}); pass \`{ error }\` if the agent should let the error out`);
    else if (typeof options.error === "string" ? !error.includes(options.error) : !options.error.test(error))
      problems.push(`turn ${turn.index} failed with ${oneLine(error)}, not ${String(options.error)}`);
  }
  const pass = problems.length === 0;
  return {
    pass,
    message: () =>
      reportSections(
        this,
        "toHaveGivenUpCleanly",
        `${this.isNot ? "not " : ""}to give up cleanly after an injected fault`,
        pass ? "it gave up cleanly" : problems.join("; "),
        [faultsSection(outcomes)],
      ),
  };
}
