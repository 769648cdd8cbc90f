/// <reference path="./augment.d.ts" preserve="true" />
/**
 * The setup file the `tooltrace()` plugin adds to Vitest's `setupFiles` (after the user's own).
 * Registers the matchers, runs every test inside its own scope (concurrent tests included), and after each
 * test closes what the test opened (restoring the patched tools), checks unused rules, violations and turns
 * still running, and puts the turns on `task.meta`. Calls that arrive after their test ended fail the file.
 */
import * as vitest from "vitest";
import { matchers } from "../../matchers/all.js";
import { useCassetteMode } from "../cassettes/cassette-mode.js";
import { resetCassetteWriters } from "../cassettes/writers.js";
import { setPluginAllowHosts } from "../lifecycle/edge-defaults.js";
import { startGuards } from "../edges/start-guards.js";
import { setPluginStrict } from "../lifecycle/strict-default.js";
import { useHttpMocks } from "../http-mocks/shared-http-mocks.js";
import { useMiddleware } from "../middleware/shared-middleware.js";
import type { Middleware } from "../middleware/types.js";
import type { TooltracePluginOptions } from "./options.js";
import { finishTest } from "../lifecycle/finish-test.js";
import { fileFinished, takeLateCallReports, takeOrphanLateCalls } from "../lifecycle/late-calls.js";
import { runInScope, setActiveScope, TestScope } from "../lifecycle/scope.js";
import { LATE_CALLS_META } from "./late-call-reporter.js";
import { usageError } from "../base/errors.js";
import { conversationText } from "../report/conversation-text.js";

const options = readOptions();
startGuards(options);
vitest.expect.extend(matchers);
const middlewarePaths = typeof options.middleware === "string" ? [options.middleware] : (options.middleware ?? []);
if (middlewarePaths.length > 0) useMiddleware(await loadMiddleware(middlewarePaths));
if (options.http !== undefined) useHttpMocks(options.http);
useCassetteMode(options.cassette);
resetCassetteWriters();
setPluginStrict(options.strict);
setPluginAllowHosts(options.allowHosts);
const scopes = new WeakMap<object, TestScope>();
// The file's own scope, for sessions made at module level or in `beforeAll`: closed when the file ends.
const testFile = readTestPath();
const fileScope = new TestScope(undefined, testFile, undefined, true);
setActiveScope(fileScope);
let fileTask: { meta: object } | undefined;

type TaskLike = {
  name: string;
  fullName?: string;
  file?: { name: string; filepath?: string; meta?: object };
  suite?: TaskLike;
};

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

function scopeFor(task: TaskLike): TestScope {
  let scope = scopes.get(task);
  if (scope === undefined) {
    scope = new TestScope(testNameOf(task), task.file?.filepath, task);
    scopes.set(task, scope);
  }
  return scope;
}

// Hooks destructure their context: Vitest reads a hook's first parameter as a fixture list when the file uses `test.extend`.
// Typed loosely: Vitest 3.2's types have no `aroundEach`.
const aroundEach = (vitest as { aroundEach?: (fn: (runTest: () => Promise<void>, context: { task: TaskLike }) => Promise<void>) => void })
  .aroundEach;
if (typeof aroundEach === "function") {
  aroundEach(async (runTest, { task }) => {
    await runInScope(scopeFor(task), runTest);
  });
} else {
  // Vitest < 4.1 has no aroundEach: wrap the test function itself, which the runner looks up after the
  // beforeEach hooks, so every test (concurrent ones too) runs in its own scope.
  // Computed, so neither the bundler nor Vite sees a literal to resolve: Vitest 5 has no `vitest/suite` (and
  // never gets here).
  const suite = ["vitest", "suite"].join("/");
  const { getFn, setFn } = (await import(/* @vite-ignore */ suite)) as {
    getFn(task: object): unknown;
    setFn(task: object, fn: () => Promise<void>): void;
  };
  const originals = new WeakMap<object, () => unknown>();
  vitest.beforeEach(({ task }) => {
    let original = originals.get(task);
    if (original === undefined) {
      original = getFn(task) as (() => unknown) | undefined;
      if (typeof original !== "function") return;
      originals.set(task, original);
    }
    const run = original;
    const scope = scopeFor(task);
    setFn(task, () => runInScope(scope, run) as Promise<void>);
  });
}

vitest.afterEach(async ({ task }) => {
  if (fileTask === undefined && task.file?.meta !== undefined) fileTask = task.file as { meta: object };
  const scope = scopes.get(task);
  if (scope === undefined) return;
  scopes.delete(task);
  const { meta, warnings, failure } = finishTest(scope, options.unusedRules ?? "warn", errorTexts(task.result?.errors));
  if (meta.sessions.length > 0) task.meta.tooltrace = meta;
  // Under a JUnit reporter, a failing eval's conversation is its test's output (JUnit's `system-out`).
  const failing = failure !== undefined || (task.result?.errors?.length ?? 0) > 0;
  if (process.env.TOOLTRACE_JUNIT === "1" && failing && meta.sessions.length > 0) console.log(conversationText(meta));
  for (const warning of warnings) console.warn(warning);
  if (failure) throw failure;
});

vitest.afterAll(() => {
  setActiveScope(undefined);
  const { warnings, failure } = finishTest(fileScope, options.unusedRules ?? "warn");
  for (const warning of warnings) console.warn(warning);
  const late = takeLateCallReports(testFile);
  if (testFile !== undefined) fileFinished(testFile);
  // Late calls of files that already ended: the main process fails those files (never this one).
  const orphans = takeOrphanLateCalls();
  if (orphans.length > 0 && fileTask !== undefined) (fileTask.meta as Record<string, unknown>)[LATE_CALLS_META] = orphans;
  const problems = [
    ...(failure ? [failure.message] : []),
    ...(late.length > 0
      ? [
          `calls arrived after their test ended (the test timed out, or did not await the agent):\n${late.map((line) => `- ${line}`).join("\n")}`,
        ]
      : []),
  ];
  if (problems.length > 0) throw new Error(problems.join("\n"));
});

/** The messages of the errors a test already failed with, and of their causes, as one text. */
function errorTexts(errors: readonly unknown[] | undefined): string {
  const texts: string[] = [];
  for (const error of errors ?? []) {
    for (let current: unknown = error, depth = 0; current !== null && typeof current === "object" && depth < 5; depth++) {
      const { message, cause } = current as { message?: unknown; cause?: unknown };
      if (typeof message === "string") texts.push(message);
      current = cause;
    }
  }
  return texts.join("\n");
}

/** The middleware the plugin's `middleware` modules export by default (an array, or one). */
async function loadMiddleware(paths: readonly string[]): Promise<Middleware[]> {
  const lists = await Promise.all(
    paths.map(async (path) => {
      const exported = ((await import(/* @vite-ignore */ path)) as { default?: unknown }).default;
      if (exported === undefined)
        throw usageError(`tooltrace({ middleware }): ${path} has no default export; export default [yourMiddleware].`);
      return (Array.isArray(exported) ? exported : [exported]) as Middleware[];
    }),
  );
  return lists.flat();
}

/** The test file this setup file runs for (Vitest runs setup files once per test file). */
function readTestPath(): string | undefined {
  const path = (vitest.expect.getState() as { testPath?: unknown }).testPath;
  return typeof path === "string" ? path : undefined;
}

function readOptions(): TooltracePluginOptions {
  try {
    return vitest.inject("tooltrace") ?? {};
  } catch {
    return {};
  }
}
