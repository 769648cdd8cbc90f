import { usageError } from "../src/exits/errors.js";
import { addScore } from "../src/trace/scores.js";
import type { Judge, JudgeOptions } from "./lib/judge.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";

/**
 * The judge scores the turn (or a session's last turn) at least `threshold` (default 1). Asynchronous:
 * `await expect(turn).toSatisfyJudge(judge, { threshold: 0.7 })`. The score and its reason are kept on the turn
 * (the viewer shows them; trials average them), and a failure shows the reason and a model judge's prompt.
 */
export async function toSatisfyJudge(
  this: MatcherContext,
  received: unknown,
  judge: Judge,
  options: JudgeOptions = {},
): Promise<MatcherResult> {
  if (typeof judge !== "function") throw usageError("toSatisfyJudge(judge): a judge is a function of a turn returning { score, reason }.");
  const threshold = options.threshold ?? 1;
  if (!(threshold >= 0 && threshold <= 1))
    throw usageError(`toSatisfyJudge(judge, { threshold }): a score from 0 to 1, got ${String(threshold)}.`);
  const trace = readTrace(received);
  const turn = trace?.turns.at(-1);
  if (trace === undefined || trace.kind === "calls" || turn === undefined)
    return { pass: false, message: () => notATrace("toSatisfyJudge (a turn or a session with a turn)", received) };
  const name = judge.judgeName ?? (judge.name || "judge");
  const result = await judge({ turn, turns: trace.turns, question: turn.userMessage, answer: turn.text, received });
  const { score } = result;
  if (typeof score !== "number" || !(score >= 0 && score <= 1))
    throw usageError(
      `toSatisfyJudge: the judge "${name}" returned the score ${JSON.stringify(score)}; a judge returns { score } from 0 to 1.`,
    );
  const pass = score >= threshold;
  addScore(turn, { judge: name, score, threshold, pass, ...(result.reason !== undefined ? { reason: result.reason } : {}) });
  return {
    pass,
    message: () =>
      reportSections(
        this,
        "toSatisfyJudge",
        `${this.isNot ? "not " : ""}judge "${name}" to score at least ${threshold}`,
        `${score.toFixed(2)}${result.reason ? `: ${result.reason}` : ""}`,
        [
          `Question: ${turn.userMessage}\nAnswer: ${turn.text}`,
          ...(result.prompt !== undefined ? [`The judge's prompt:\n${result.prompt}`] : []),
        ],
      ),
  };
}
