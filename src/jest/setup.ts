/// <reference path="./augment.d.ts" preserve="true" />
/**
 * Jest setup: add `"setupFilesAfterEnv": ["tooltrace/jest"]` to your Jest config. Registers the matchers
 * and the same after-test checks as the Vitest plugin. Jest runs a file's tests one at a time, so the
 * running test's scope is set before each test.
 *
 * @module tooltrace/jest
 */
import { matchers } from "../../matchers/all.js";
import { runFlags } from "../base/run-flags.js";
import { resetCassetteWriters } from "../cassettes/writers.js";
import { answerProviderHosts } from "../catchers/provider-hosts.js";
import { startGuards } from "../edges/start-guards.js";
import { outText, printOut } from "../exits/out.js";
import { finishTest } from "../lifecycle/finish-test.js";
import { takeLateCallReports } from "../lifecycle/late-calls.js";
import { setActiveScope, TestScope } from "../lifecycle/scope.js";
import type { UnusedRulesPolicy } from "../session/types.js";

interface JestGlobals {
  expect: { extend(matchers: object): void; getState(): { currentTestName?: string } };
  beforeEach(fn: () => void): void;
  afterEach(fn: () => void): void;
  afterAll(fn: () => void): void;
}

// Not named `jest`: Jest wraps a CommonJS module in a function whose parameters include `jest`.
const globals = globalThis as unknown as JestGlobals;
runFlags.setup = "jest";
startGuards({});
answerProviderHosts();
globals.expect.extend(matchers);
resetCassetteWriters();

/** The unused-rule policy for Jest, which has no plugin options: `warn` (default), `error` or `ignore`. */
const policy =
  (["warn", "error", "ignore"] as const).find((value) => value === process.env.TOOLTRACE_UNUSED_RULES) ??
  ("warn" satisfies UnusedRulesPolicy);

let scope: TestScope | undefined;
globals.beforeEach(() => {
  scope = new TestScope(globals.expect.getState().currentTestName);
  setActiveScope(scope);
});
globals.afterEach(() => {
  setActiveScope(undefined);
  if (scope === undefined) return;
  const { warnings, failure } = finishTest(scope, policy);
  scope = undefined;
  for (const warning of warnings) printOut("console", warning);
  if (failure) throw failure;
});
globals.afterAll(() => {
  const late = takeLateCallReports();
  if (late.length > 0)
    throw new Error(outText("error", `calls arrived after their test ended:\n${late.map((line) => `- ${line}`).join("\n")}`));
});
