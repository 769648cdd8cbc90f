import { AsyncLocalStorage } from "node:async_hooks";
import { globalSingleton } from "../base/global-state.js";
import type { TurnContext } from "./caught.js";

const storage = globalSingleton("turnContext", () => new AsyncLocalStorage<TurnContext>());

/** The turn running in this async context, if any: how a catcher finds the pipeline a call belongs to. */
export function currentTurnContext(): TurnContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `context` as the current turn context (and everything it awaits). */
export function runInTurnContext<T>(context: TurnContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Runs `fn` outside every turn context: what tooltrace sends itself (a remote agent's own requests) is no call of a turn's. */
export function outsideTurnContext<T>(fn: () => T): T {
  return storage.exit(fn);
}
