/**
 * Jest setup: add `"setupFilesAfterEnv": ["tooltrace/jest"]` to your Jest config. Registers the matchers
 * and the same after-test checks as the Vitest plugin. Jest runs a file's tests one at a time, so the
 * running test's scope is set before each test.
 */
import { matchers } from "../../matchers/all.js";
import { setActiveScope, TestScope } from "../session/scope.js";
import { finishTest } from "../session/finish-test.js";
import "./augment.js";

interface JestGlobals {
  expect: { extend(matchers: object): void };
  beforeEach(fn: () => void): void;
  afterEach(fn: () => void): void;
}

const jest = globalThis as unknown as JestGlobals;
jest.expect.extend(matchers);

let scope: TestScope | undefined;
jest.beforeEach(() => {
  scope = new TestScope();
  setActiveScope(scope);
});
jest.afterEach(() => {
  setActiveScope(undefined);
  if (scope === undefined) return;
  const { warnings, failure } = finishTest(scope, (process.env.TOOLTRACE_UNUSED_RULES as "warn" | "error" | "ignore" | undefined) ?? "warn");
  scope = undefined;
  for (const warning of warnings) console.warn(warning);
  if (failure) throw failure;
});
