import { AsyncLocalStorage } from "node:async_hooks";
import type { TurnContext } from "../pipeline/caught.js";
import { globalSingleton } from "../base/global-state.js";

const storage = globalSingleton("turnContext", () => new AsyncLocalStorage<TurnContext>());

/** The turn running in this async context, if any. */
export function currentTurnContext(): TurnContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `context` as the current turn context (and everything it awaits). */
export function runInTurnContext<T>(context: TurnContext, fn: () => T): T {
  return storage.run(context, fn);
}
