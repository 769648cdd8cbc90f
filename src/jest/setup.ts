/// <reference path="./augment.d.ts" preserve="true" />
/**
 * Jest setup: add `"setupFilesAfterEnv": ["tooltrace/jest"]` to your Jest config. Registers the matchers
 * and the same after-test checks as the Vitest plugin; its options are `globals: { tooltrace: { ... } }` in the
 * Jest config (see {@link TooltraceJestOptions}). Jest runs a file's tests one at a time, so the
 * running test's scope is set before each test.
 *
 * @module tooltrace/jest
 */
import { endRealm } from "../base/realm-end.js";
import { runFlags } from "../base/run-flags.js";
import { useCassetteMode } from "../cassettes/cassette-mode.js";
import { resetCassetteWriters } from "../cassettes/writers.js";
import { answerProviderHosts } from "../catchers/provider-hosts.js";
import { startGuards } from "../edges/start-guards.js";
import { outText, printOut } from "../exits/out.js";
import { setPluginAllowHosts } from "../lifecycle/edge-defaults.js";
import { finishTest } from "../lifecycle/finish-test.js";
import { takeLateCallReports } from "../lifecycle/late-calls.js";
import { lazyMatchers, loadMatchers } from "../lifecycle/lazy-matchers.js";
import { loadLazyDependencies } from "../base/lazy-require.js";
import { setActiveScope, TestScope } from "../lifecycle/scope.js";
import { setPluginStrict } from "../lifecycle/strict-default.js";
import { handOffTest } from "../report/jest-handoff.js";
import { readJestOptions } from "./options.js";
import { scopeConcurrentTests } from "./concurrent-tests.js";
import { hasInFlightLimits, setProviderLimits } from "../base/provider-limits.js";
import { useLimiterHost } from "../base/provider-gate.js";
import { JEST_LIMITER_ENV } from "../report/jest-limiter.js";

export type { TooltraceJestOptions } from "./options.js";

interface JestGlobals {
  test: { concurrent?: unknown };
  expect: { extend(matchers: object): void; getState(): { currentTestName?: string; testPath?: string } };
  beforeEach(fn: () => void): void;
  afterEach(fn: () => void): void;
  afterAll(fn: () => void): void;
}

// Not named `jest`: Jest wraps a CommonJS module in a function whose parameters include `jest`.
const globals = globalThis as unknown as JestGlobals;
runFlags.setup = "jest";
const options = readJestOptions();
startGuards(options);
answerProviderHosts();
// Each matcher loads its code at its first use: Jest loads every module again in each test file.
globals.expect.extend(lazyMatchers());
useCassetteMode(options.cassette);
resetCassetteWriters();
setPluginStrict(options.strict);
setPluginAllowHosts(options.allowHosts);
setProviderLimits(options.providers);
// One limit across Jest's workers when tooltrace/jest-reporter hosts it; without the reporter, each worker's own.
if (hasInFlightLimits(options.providers)) useLimiterHost(process.env[JEST_LIMITER_ENV]);
runFlags.trialsConcurrency = options.trials?.concurrency;
const policy = options.unusedRules ?? "warn";

let loadedEverything = false;
/** What a concurrent test might load later, loaded as the file declares one (see `scopeConcurrentTests`). */
function loadEverythingNow(): void {
  if (loadedEverything) return;
  loadedEverything = true;
  loadMatchers();
  loadLazyDependencies();
}

let scope: TestScope | undefined;
globals.beforeEach(() => {
  scope = new TestScope(globals.expect.getState().currentTestName);
  setActiveScope(scope);
});
globals.afterEach(() => {
  setActiveScope(undefined);
  if (scope === undefined) return;
  const { meta, sessionCount, warnings, failure } = finishTest(scope, policy);
  scope = undefined;
  // tooltrace/jest-reporter, when the config names it, reads the test's sessions in the parent process.
  const state = globals.expect.getState();
  if (sessionCount > 0) handOffTest(state.testPath, state.currentTestName, meta);
  for (const warning of warnings) printOut("console", warning);
  if (failure) throw failure;
});
// A concurrent test runs outside those hooks: its function gets its scope, closed and checked when it settles.
scopeConcurrentTests(
  globals.test,
  (concurrent, title) => {
    const { meta, sessionCount, warnings, failure } = finishTest(concurrent, policy);
    if (sessionCount > 0) handOffTest(globals.expect.getState().testPath, title, meta);
    for (const warning of warnings) printOut("console", warning);
    if (failure) throw failure;
  },
  loadEverythingNow,
);
globals.afterAll(() => {
  // Declared first, it runs before the file's own top-level `afterAll`s: what they send meets the guard under
  // `fetch` still, and no longer the `node:http` catcher or the guards at the edges (Jest gives no later hook).
  endRealm();
  const late = takeLateCallReports();
  if (late.length > 0)
    throw new Error(outText("error", `calls arrived after their test ended:\n${late.map((line) => `- ${line}`).join("\n")}`));
});
