import { globalSingleton } from "./global-state.js";

const state = globalSingleton("realmEnd", () => ({ undo: [] as (() => void)[] }));

/**
 * Whether `value` was made in another realm than this code's: under Jest a test file runs in a `vm` context
 * of its own, while Node's built-in modules and `fetch` are the outer realm's, shared with every file the
 * worker runs after this one.
 */
export function fromAnotherRealm(value: object): boolean {
  return Object.getPrototypeOf(value) !== (typeof value === "function" ? Function.prototype : Object.prototype);
}

/** Undoes a patch this realm put on another realm's objects when this realm's test file ends (see {@link endRealm}). */
export function undoWhenRealmEnds(undo: () => void): void {
  state.undo.push(undo);
}

/** Called by the Jest setup after the file's tests: what this file patched in the shared realm goes, newest first. */
export function endRealm(): void {
  for (const undo of state.undo.splice(0).reverse()) undo();
}
