import type { Judge } from "../../matchers/lib/judge.js";

/** Options of {@link answerJudge}. */
export interface AnswerJudgeOptions {
  /** What a good answer says: each text (any case) or RegExp found is a share of the score. */
  readonly includes?: readonly (string | RegExp)[];
  /** What it must not say: any found scores 0. */
  readonly excludes?: readonly (string | RegExp)[];
  /** The judge's name in the trace. Default `answer`. */
  readonly name?: string;
}

// `search`, not `test`: a RegExp with the `g` flag keeps no place between calls, so a judge reused in trials agrees.
const found = (answer: string, expected: string | RegExp) =>
  typeof expected === "string" ? answer.toLowerCase().includes(expected.toLowerCase()) : answer.search(expected) !== -1;

/**
 * Judges the answer by its text, with partial credit: the share of `includes` it says, or 0 when it says
 * anything in `excludes`.
 *
 * @example
 * ```ts
 * await expect(turn).toSatisfyJudge(answerJudge({ includes: ["Paris", /\d+ ?°C/] }), { threshold: 0.5 });
 * ```
 */
export function answerJudge(options: AnswerJudgeOptions): Judge {
  const includes = options.includes ?? [];
  const excludes = options.excludes ?? [];
  const judge: Judge = ({ answer }) => {
    const said = excludes.filter((text) => found(answer, text));
    if (said.length > 0) return { score: 0, reason: `it says ${said.map(String).join(", ")}, which it must not` };
    if (includes.length === 0) return { score: 1, reason: "nothing it must not say" };
    const missing = includes.filter((text) => !found(answer, text));
    const score = (includes.length - missing.length) / includes.length;
    return { score, reason: missing.length === 0 ? "it says everything expected" : `it does not say ${missing.map(String).join(", ")}` };
  };
  return Object.assign(judge, { judgeName: options.name ?? "answer" });
}
