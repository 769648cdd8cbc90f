/**
 * The setup file the `tooltrace()` plugin adds to Vitest's `setupFiles` (after the user's own).
 * Registers the matchers, gives every test its own scope (concurrent tests included), and after each test
 * restores the patched tools, checks unused rules and strict-mode violations, and puts the turns on `task.meta`.
 */
import * as vitest from "vitest";
import { matchers } from "../../matchers/all.js";
import { runInScope, setActiveScope, TestScope } from "../session/scope.js";
import { finishTest } from "../session/finish-test.js";
import "./augment.js";

vitest.expect.extend(matchers);

const options = readOptions();
const scopes = new WeakMap<object, TestScope>();

function scopeFor(task: object): TestScope {
  let scope = scopes.get(task);
  if (scope === undefined) {
    scope = new TestScope();
    scopes.set(task, scope);
  }
  return scope;
}

if (typeof vitest.aroundEach === "function") {
  vitest.aroundEach(async (runTest, context) => {
    await runInScope(scopeFor(context.task), runTest);
  });
} else {
  vitest.beforeEach((context) => setActiveScope(scopeFor(context.task)));
}

vitest.afterEach(async (context) => {
  const scope = scopes.get(context.task);
  if (scope === undefined) return;
  setActiveScope(undefined);
  const { meta, warnings, failure } = finishTest(scope, options.unusedRules ?? "warn");
  if (meta.sessions.length > 0) context.task.meta.tooltrace = meta;
  for (const warning of warnings) console.warn(warning);
  if (failure) throw failure;
});

function readOptions(): { unusedRules?: "warn" | "error" | "ignore" } {
  try {
    return vitest.inject("tooltrace") ?? {};
  } catch {
    return {};
  }
}
