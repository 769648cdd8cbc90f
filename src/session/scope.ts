import { AsyncLocalStorage } from "node:async_hooks";
import { globalSingleton } from "../global-state.js";

/** Anything a test scope closes when its test ends. */
export interface ScopedSession {
  close(): SessionReport;
}

/** What a session left behind when it closed: for the plugin's after-test checks. */
export interface SessionReport {
  readonly name: string;
  readonly unusedRuleIds: readonly string[];
  /** Strict-mode violations, call-limit overruns and other problems that fail the test. */
  readonly violations: readonly string[];
  readonly turns: readonly unknown[];
  /** The session's own policy for unused rules, when it set one. */
  readonly unusedRules?: "warn" | "error" | "ignore";
}

/** The sessions created during one test. */
export class TestScope {
  readonly sessions = new Set<ScopedSession>();

  /** Closes every session (restoring its spies) and returns their reports. */
  closeAll(): SessionReport[] {
    const reports = [...this.sessions].map((session) => session.close());
    this.sessions.clear();
    return reports;
  }
}

const state = globalSingleton("scopes", () => ({ storage: new AsyncLocalStorage<TestScope>(), active: undefined as TestScope | undefined }));

/** The scope of the test running in this async context (or the runner's active test, when it runs one at a time). */
export function currentScope(): TestScope | undefined {
  return state.storage.getStore() ?? state.active;
}

/** Runs `fn` (a whole test) inside `scope`, so concurrent tests each see their own. */
export function runInScope<T>(scope: TestScope, fn: () => T): T {
  return state.storage.run(scope, fn);
}

/** Sets the scope for runners that run one test at a time and have no way to wrap it (Jest, Vitest < 4.1). */
export function setActiveScope(scope: TestScope | undefined): void {
  state.active = scope;
}
