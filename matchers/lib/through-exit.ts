import { outMatcherResult, type RunnerMatcherResult } from "../../src/exits/out.js";
import { turnErrorSection, withTurnErrors } from "./turn-errors.js";

type Matcher = (this: never, ...args: never[]) => RunnerMatcherResult | Promise<RunnerMatcherResult>;

/**
 * Every matcher as the runner gets it: its result through the exit (`outMatcherResult`), so no message or
 * diff a matcher hands the runner skips redaction, whoever wrote the matcher.
 */
export function throughExit<T extends Record<string, Matcher>>(matchers: T): T {
  const wrapped: Record<string, Matcher> = {};
  for (const [name, matcher] of Object.entries(matchers)) {
    const exit = name === "toSatisfyJudge" ? "judge message" : "matcher message";
    wrapped[name] = {
      [name](this: never, ...args: never[]) {
        const result = matcher.apply(this, args);
        // A failure on a turn that failed says the agent's own error first (built only when shown).
        const said = (settled: RunnerMatcherResult): RunnerMatcherResult =>
          outMatcherResult(exit, { ...settled, message: () => withTurnErrors(settled.message(), turnErrorSection(args[0])) });
        return result instanceof Promise ? result.then(said) : said(result);
      },
    }[name] as Matcher;
  }
  return wrapped as T;
}
