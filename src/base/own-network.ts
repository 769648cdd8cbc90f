import { AsyncLocalStorage } from "node:async_hooks";
import { globalSingleton } from "./global-state.js";

const storage = globalSingleton("ownNetwork", () => new AsyncLocalStorage<true>());

/**
 * Runs `send` as tooltrace's own network traffic that a session asked for (its `upstream`, the real model):
 * the hermetic guard lets it out, wherever it runs (a CLI proxy's request handler has no turn context).
 */
export function asOwnNetwork<T>(send: () => T): T {
  return storage.run(true, send);
}

/** True inside {@link asOwnNetwork}. */
export function isOwnNetwork(): boolean {
  return storage.getStore() === true;
}
