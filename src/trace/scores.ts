import type { JudgeRecord, Turn } from "./types.js";

/** Keeps a judge's score on the turn it judged (`toSatisfyJudge`): the trace, the viewer and trials read it there. */
export function addScore(turn: Turn, record: JudgeRecord): void {
  const open = turn as { scores?: JudgeRecord[] };
  open.scores = [...(open.scores ?? []), record];
}

/** The mean score of each judge over `turns`, by judge name. */
export function meanScores(turns: readonly Pick<Turn, "scores">[]): Record<string, number> {
  const sums = new Map<string, { total: number; count: number }>();
  for (const turn of turns)
    for (const record of turn.scores ?? []) {
      const sum = sums.get(record.judge) ?? { total: 0, count: 0 };
      sum.total += record.score;
      sum.count += 1;
      sums.set(record.judge, sum);
    }
  return Object.fromEntries([...sums].map(([judge, { total, count }]) => [judge, total / count]));
}
