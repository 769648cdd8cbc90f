import { globalSingleton } from "../base/global-state.js";
import { checkMiddleware } from "./check-middleware.js";
import type { Middleware } from "./types.js";

const shared = globalSingleton("sharedMiddleware", () => ({ list: [] as readonly Middleware[] }));

/**
 * Middleware for every session created from now on in this process, before each session's own. The Vitest
 * plugin calls it with the modules named in `tooltrace({ middleware })`; under Jest, call it in a setup file.
 * Replaces what an earlier call set; `useMiddleware([])` clears it.
 *
 * @example
 * ```ts
 * useMiddleware([scrubber({ remove: ["INC-4821"] })]);
 * ```
 */
export function useMiddleware(list: readonly Middleware[]): void {
  shared.list = checkMiddleware([list]);
}

/** The middleware set by {@link useMiddleware}. */
export function sharedMiddleware(): readonly Middleware[] {
  return shared.list;
}
