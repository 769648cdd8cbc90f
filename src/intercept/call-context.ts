import { AsyncLocalStorage } from "node:async_hooks";
import { globalSingleton } from "../global-state.js";
import type { ModelCall } from "../trace/types.js";

/** Who handles the tool calls made while a turn runs (a session). */
export interface ToolCallHost {
  /** Runs one intercepted call: stubs, strict mode, or the original function. */
  callTool(context: CallContext, identity: ToolIdentity, original: (...args: unknown[]) => unknown, thisArg: unknown, args: unknown[]): unknown;
}

/** A tool's name and the subagent path it lives at (`[]` for the root agent). */
export interface ToolIdentity {
  readonly tool: string;
  readonly path: readonly string[];
  readonly qualifiedName: string;
}

/** What is running right now, as seen from inside the agent's code. */
export interface CallContext {
  readonly host: ToolCallHost;
  /** Opaque to the intercept layer: the session's current turn. */
  readonly turn: unknown;
  /** Adds a model call to the current turn (the mock model and the wire mock call it). */
  recordModelCall(call: ModelCall): void;
  /** Records a problem that must fail the test even if the agent recovers (a wire responder that threw). */
  recordViolation(message: string): void;
}

const storage = globalSingleton("callContext", () => new AsyncLocalStorage<CallContext>());

/** The turn running in this async context, if any. */
export function currentCallContext(): CallContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `context` as the current call context (and everything it awaits). */
export function runInCallContext<T>(context: CallContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Joins a path and a tool name as a stub rule names it. */
export function qualify(tool: string, path: readonly string[]): string {
  return path.length === 0 ? tool : `${path.join("/")}/${tool}`;
}
