import type { Turn } from "../../src/trace/types.js";

/** What a judge sees: the turns it judges and, for the common case, the last turn's question and answer. */
export interface JudgeSubject {
  /** The turn judged: the one given, or a session's last. */
  readonly turn: Turn;
  /** Every turn given (a session's), oldest first. */
  readonly turns: readonly Turn[];
  /** The user message of the turn judged. */
  readonly question: string;
  /** The agent's answer in the turn judged. */
  readonly answer: string;
  /** What `expect` was given (a turn or a session), for a judge that asks the session's model. */
  readonly received: unknown;
}

/** A judge's verdict: a score between 0 and 1, and why. */
export interface JudgeResult {
  readonly score: number;
  readonly reason?: string;
  /** The prompt a model judge sent, shown when the assertion fails. */
  readonly prompt?: string;
}

/**
 * A judge: a function of a turn (or a session) that scores it between 0 and 1, with a reason. Its name in
 * the trace is `judgeName`, else the function's name.
 */
export type Judge = ((subject: JudgeSubject) => JudgeResult | Promise<JudgeResult>) & { readonly judgeName?: string };

/** Options of `toSatisfyJudge`. */
export interface JudgeOptions {
  /** The least score that passes. Default 1. */
  readonly threshold?: number;
}
