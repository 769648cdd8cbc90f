import { globalSingleton } from "../base/global-state.js";

type Ask = (prompt: string) => Promise<string>;

const llms = globalSingleton("judgeLlms", () => new WeakMap<object, Ask>());

/** Remembers how a judge asks the model of the session behind `key` (a session, or one of its turns). */
export function rememberJudgeLlm(key: object, ask: Ask): void {
  llms.set(key, ask);
}

/** How a judge asks the model of the session behind a turn or a session (`ctx.callLLM`'s model), if known. */
export function judgeLlmOf(received: unknown): Ask | undefined {
  return received !== null && typeof received === "object" ? llms.get(received) : undefined;
}
