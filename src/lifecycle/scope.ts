import { AsyncLocalStorage } from "node:async_hooks";
import { globalSingleton } from "../base/global-state.js";
import type { OfferedToolJson } from "../trace/request-json.js";
import type { TurnJson } from "../trace/turn-json.js";
import type { TrialsJson, UnusedRulesPolicy } from "./test-report.js";
import type { CassetteOptions } from "../cassettes/types.js";

/** Anything a test scope closes when its test ends. */
export interface ScopedSession {
  readonly name: string;
  close(): SessionReport;
  /** The problems found so far, cleared: for a session of another scope whose turn ran in this test. */
  takeViolations(): string[];
}

/** What a session left behind when it closed: for the plugin's after-test checks. */
export interface SessionReport {
  readonly name: string;
  readonly unusedRuleIds: readonly string[];
  /** Of those, the HTTP mocks' ids (the rest are stub rules'). */
  readonly unusedMockIds?: readonly string[];
  /** Strict-mode violations, call-limit overruns and other problems that fail the test. */
  readonly violations: readonly string[];
  /** The turns in their JSON form (see `TurnJson`), made when asked: copying a long trace costs time. */
  turnsJson(): readonly TurnJson[];
  /** The tools the session's model was offered, by name (see `TooltraceTaskMeta`). */
  offeredTools(): Readonly<Record<string, OfferedToolJson>>;
  /** The session's own policy for unused rules, when it set one. */
  readonly unusedRules?: UnusedRulesPolicy;
  /** When a turn was still running as the session closed: what it was waiting on. */
  readonly stillRunning?: string;
  readonly strict: boolean;
  /** The session's cassette, when it had one. */
  readonly cassette?: { readonly path: string; readonly mode: "replay" | "record" };
  /** Where the test first sent the session a message (`file:line:column`). */
  readonly sentAt?: string;
}

/** The sessions, servers and other resources created during one test. */
export class TestScope {
  /** Each session of the test, in the order they were made; a closed one by its report, so it can be freed. */
  private readonly slots: (ScopedSession | SessionReport)[] = [];
  private readonly open = new Map<ScopedSession, number>();
  /** Things to close when the test ends (a wire server started inside the test). */
  readonly resources = new Set<{ close(): void }>();
  /** Sessions of another scope (made at module level or in `beforeAll`) that ran a turn in this test. */
  private readonly visitors = new Set<ScopedSession>();
  /** The repeated trials this test ran, for `task.meta` (see `trials()`). */
  readonly trials: TrialsJson[] = [];
  /** The cassette a session made in this scope has when it names none: a trial's cache (`trials({ cassette })`). */
  sessionCassette: CassetteOptions | undefined;
  /** What the guards at the process's edges refused outside every turn while this test ran: each fails it. */
  private readonly refusals = new Set<string>();

  /**
   * @param testName The test's full name, for messages about calls that arrive after it ended.
   * @param testPath The test file, where its sessions' cassettes live by default.
   * @param test The runner's own object for the test (Vitest's task), the same across its retries.
   */
  constructor(
    readonly testName?: string,
    readonly testPath?: string,
    readonly test?: object,
    /** The scope of a whole test file: sessions made at module level or in `beforeAll`, closed when the file ends. */
    readonly wholeFile = false,
  ) {}

  /** How many sessions the test has made so far. */
  get sessionCount(): number {
    return this.slots.length;
  }

  add(session: ScopedSession): void {
    this.open.set(session, this.slots.push(session) - 1);
  }

  /** A session of another scope ran a turn in this test: what it finds fails this test. */
  visit(session: ScopedSession): void {
    this.visitors.add(session);
  }

  /** The hermetic guard refused something outside every turn: the test fails with it, once. */
  refused(message: string): void {
    if (this.refusals.size < 100) this.refusals.add(message);
  }

  /** The refusals so far, cleared. */
  takeRefusals(): string[] {
    const taken = [...this.refusals];
    this.refusals.clear();
    return taken;
  }

  /** The visiting sessions' problems found while this test ran, each once. */
  takeVisitorViolations(): string[] {
    const found = [...this.visitors].flatMap((session) => session.takeViolations().map((violation) => `${session.name}: ${violation}`));
    this.visitors.clear();
    return found;
  }

  /** The report of a session that ran and closed elsewhere (a trial's own scope), kept for the test's `task.meta`. */
  adopt(report: SessionReport): void {
    this.slots.push(report);
  }

  /** A session closed before its test ended: its report waits for the end, and the session itself is let go. */
  closed(session: ScopedSession, report: SessionReport): void {
    const slot = this.open.get(session);
    if (slot === undefined) return;
    this.slots[slot] = report;
    this.open.delete(session);
  }

  /** Closes every session (restoring its spies) and every resource, and returns the sessions' reports in order. */
  closeAll(): SessionReport[] {
    const reports = this.slots.map((slot) =>
      this.open.has(slot as ScopedSession) ? (slot as ScopedSession).close() : (slot as SessionReport),
    );
    this.slots.length = 0;
    this.open.clear();
    for (const resource of this.resources) resource.close();
    this.resources.clear();
    return reports;
  }
}

const state = globalSingleton("scopes", () => ({
  storage: new AsyncLocalStorage<TestScope>(),
  active: undefined as TestScope | undefined,
  provider: undefined as (() => TestScope | undefined) | undefined,
}));

/**
 * The scope of the test running in this async context (a concurrent test's), else the running test's (made
 * when first asked, by the runner's provider), else the active one (the file's, or the test a runner that has
 * no provider set).
 */
export function currentScope(): TestScope | undefined {
  return state.storage.getStore() ?? state.provider?.() ?? state.active;
}

/**
 * Sets how the running test's scope is found when no async context carries one: the runner's own idea of
 * the running test, its scope made the first time it is asked for (a test that never uses tooltrace pays nothing).
 */
export function setScopeProvider(provider: (() => TestScope | undefined) | undefined): void {
  state.provider = provider;
}

/** The scope of the running test, never a whole file's. */
export function currentTestScope(): TestScope | undefined {
  const scope = currentScope();
  return scope?.wholeFile ? undefined : scope;
}

/** Runs `fn` (a whole test) inside `scope`, so concurrent tests each see their own; `undefined` runs it outside any test. */
export function runInScope<T>(scope: TestScope | undefined, fn: () => T): T {
  return state.storage.run(scope as TestScope, fn);
}

/** Sets the scope for runners that run one test at a time and have no way to wrap it (Jest). */
export function setActiveScope(scope: TestScope | undefined): void {
  state.active = scope;
}

/**
 * The refusals the hermetic guard made outside every session's turn in the running test so far, cleared: for a
 * test that provokes one on purpose (each would fail the test when it ends). Refusals during a session's turn
 * are that session's violations: `session.takeViolations()`.
 */
export function takeRefusals(): string[] {
  return currentScope()?.takeRefusals() ?? [];
}
