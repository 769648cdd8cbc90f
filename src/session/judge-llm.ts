import { globalSingleton } from "../base/global-state.js";

/** How a judge reaches the model of the session behind a turn or a session. */
export interface JudgeAccess {
  /** One prompt to the session's model (`ctx.callLLM`'s), as the judge named `judge`. */
  ask(prompt: string, judge: string): Promise<string>;
  /**
   * Runs a judge's own client (`modelJudge({ ask })`) in the judged turn's context: its request goes through
   * the session's chain (the cassette records it, strict mode refuses it live) and is in the turn's `judgeCalls`.
   */
  within<T>(judge: string, fn: () => Promise<T>): Promise<T>;
}

const access = globalSingleton("judgeLlms", () => new WeakMap<object, JudgeAccess>());

/** Remembers how a judge reaches the model of the session behind `key` (a session, or one of its turns). */
export function rememberJudgeLlm(key: object, judge: JudgeAccess): void {
  access.set(key, judge);
}

/** How a judge reaches the model of the session behind a turn or a session, if known. */
export function judgeLlmOf(received: unknown): JudgeAccess | undefined {
  return received !== null && typeof received === "object" ? access.get(received) : undefined;
}
