import { readFileSync } from "node:fs";
import { runInScope, setActiveScope, setScopeProvider, TestScope } from "../lifecycle/scope.js";
import type { VitestApi } from "./vitest-api.js";

/** What the setup file reads of a Vitest task (structural: the task's type changed across Vitest versions). */
export type TaskLike = {
  name: string;
  fullName?: string;
  concurrent?: boolean;
  file?: { name: string; filepath?: string; meta?: object };
  suite?: TaskLike;
  result?: { errors?: unknown[] };
  meta: Record<string, unknown>;
};

/** Closes a test's scope when the test ends (the setup file's after-test checks); throws to fail the test. */
export type FinishScope = (scope: TestScope, task: TaskLike) => void | Promise<void>;

/**
 * Gives every test its own scope and closes it when the test ends, at the least cost a file's tests allow.
 * - Tests that run one at a time (Vitest 4.1 and later): no hook at all. The scope is made the first time
 *   tooltrace asks for the running test's (a session, a refusal, `useStrict`), and closed by an
 *   `onTestFinished` registered then: a test that never uses tooltrace pays nothing.
 * - A file that may run tests concurrently (`concurrent` in its source, or `sequence.concurrent`): every
 *   test runs inside its scope as its async context (`aroundEach`), so overlapping tests never see each
 *   other's sessions; on Node 20 and 22 that context makes every promise of the process pay a little.
 * - Vitest before 4.1 (no `aroundEach`): a `beforeEach` sets the scope, wrapping a concurrent test's function.
 */
export async function scopeEachTest(vitest: VitestApi, fileScope: TestScope, concurrentRun: boolean, finish: FinishScope): Promise<void> {
  const scopes = new WeakMap<object, TestScope>();
  const scopeFor = (task: TaskLike): TestScope => {
    let scope = scopes.get(task);
    if (scope === undefined) {
      scope = new TestScope(testNameOf(task), task.file?.filepath, task);
      scopes.set(task, scope);
    }
    return scope;
  };
  const finishTask = async (task: TaskLike) => {
    const scope = scopes.get(task);
    if (scope === undefined) return;
    scopes.delete(task);
    await finish(scope, task);
  };
  const { aroundEach } = vitest;
  const runner = vitest.TestRunner;
  if (typeof aroundEach === "function" && typeof runner?.getCurrentTest === "function") {
    if (!concurrentRun && !mentionsConcurrency(fileScope.testPath)) {
      setScopeProvider(() => {
        const task = runner.getCurrentTest?.() as TaskLike | undefined;
        if (task === undefined) return undefined;
        const known = scopes.get(task);
        if (known !== undefined) return known;
        const scope = scopeFor(task);
        vitest.onTestFinished(({ task: finished }) => finishTask(finished as unknown as TaskLike));
        return scope;
      });
      return;
    }
    // Hooks destructure their context: Vitest reads it as a fixture list when the file uses `test.extend`.
    aroundEach(async (runTest, { task: running }) => {
      const task = running as TaskLike;
      const scope = scopeFor(task);
      if (task.concurrent === true) return runInScope(scope, runTest);
      setActiveScope(scope);
      try {
        await runTest();
      } finally {
        setActiveScope(fileScope);
      }
    });
    vitest.afterEach(({ task }) => finishTask(task as unknown as TaskLike));
    return;
  }
  // Computed, so neither the bundler nor Vite sees a literal to resolve: Vitest 5 has no `vitest/suite` (and
  // never gets here).
  const suite = ["vitest", "suite"].join("/");
  const { getFn, setFn } = (await import(/* @vite-ignore */ suite)) as {
    getFn(task: object): unknown;
    setFn(task: object, fn: () => Promise<void>): void;
  };
  const originals = new WeakMap<object, () => unknown>();
  // Hooks destructure their context: Vitest reads a hook's first parameter as a fixture list when the file uses `test.extend`.
  vitest.beforeEach(({ task }) => {
    const scope = scopeFor(task as unknown as TaskLike);
    if ((task as TaskLike).concurrent !== true) {
      setActiveScope(scope);
      return;
    }
    let original = originals.get(task);
    if (original === undefined) {
      original = getFn(task) as (() => unknown) | undefined;
      if (typeof original !== "function") return;
      originals.set(task, original);
    }
    const run = original;
    setFn(task, () => runInScope(scope, run) as Promise<void>);
  });
  vitest.afterEach(async ({ task }) => {
    setActiveScope(fileScope);
    await finishTask(task as unknown as TaskLike);
  });
}

/** Whether a test file may declare concurrent tests (`test.concurrent`, `describe.concurrent`, `{ concurrent: true }`). */
function mentionsConcurrency(testPath: string | undefined): boolean {
  if (testPath === undefined) return true;
  try {
    return readFileSync(testPath, "utf8").includes("concurrent");
  } catch {
    return true;
  }
}

/** The test's name under its suites (`refunds > a delivered order`), the same on every Vitest version (3.2 has no `fullName`). */
function testNameOf(task: TaskLike): string {
  const prefix = task.file ? `${task.file.name} > ` : "";
  if (task.fullName !== undefined) return task.fullName.startsWith(prefix) ? task.fullName.slice(prefix.length) : task.fullName;
  const names: string[] = [];
  for (
    let current: TaskLike | undefined = task;
    current !== undefined && current !== task.file && current.name !== task.file?.name;
    current = current.suite
  )
    names.unshift(current.name);
  return names.filter((name) => name !== "").join(" > ");
}
