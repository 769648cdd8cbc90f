import { AsyncLocalStorage } from "node:async_hooks";
import { globalSingleton } from "../base/global-state.js";
import type { TurnContext } from "./caught.js";

const storage = globalSingleton("turnContext", () => new AsyncLocalStorage<TurnContext>());
const ended = globalSingleton("endedTurnContexts", () => new WeakSet<TurnContext>());

/** The turn running in this async context, if any: how a catcher finds the pipeline a call belongs to. */
export function currentTurnContext(): TurnContext | undefined {
  const context = storage.getStore();
  return context !== undefined && ended.has(context) ? undefined : context;
}

/**
 * Ends `context` for good: what still runs in it (a timer, a pool, a loop a request started) is as if outside
 * every turn from now on. For a deployed agent's requests, whose leftovers serve other users: their calls must
 * run the real tools, unrecorded, never the ended request's rules.
 */
export function endTurnContext(context: TurnContext): void {
  ended.add(context);
}

/** Runs `fn` with `context` as the current turn context (and everything it awaits). */
export function runInTurnContext<T>(context: TurnContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Runs `fn` outside every turn context: what tooltrace sends itself (a remote agent's own requests) is no call of a turn's. */
export function outsideTurnContext<T>(fn: () => T): T {
  return storage.exit(fn);
}
