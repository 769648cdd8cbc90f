/**
 * What the plugin's setup file does, given the `vitest` module: built as CommonJS too, which a test file's
 * process loads in a third of the time an ES module graph takes (see `setup.ts`).
 */
import { outText, outValue, printOut } from "../exits/out.js";
import { runFlags } from "../base/run-flags.js";
import { setProviderLimits } from "../base/provider-limits.js";
import { useLimiterHost } from "../base/provider-gate.js";
import { useCassetteMode } from "../cassettes/cassette-mode.js";
import { resetCassetteWriters } from "../cassettes/writers.js";
import { answerProviderHosts } from "../catchers/provider-hosts.js";
import { startGuards } from "../edges/start-guards.js";
import { setPluginAllowHosts } from "../lifecycle/edge-defaults.js";
import { finishTest } from "../lifecycle/finish-test.js";
import { fileFinished, takeLateCallReports, takeOrphanLateCalls } from "../lifecycle/late-calls.js";
import { setActiveScope, TestScope } from "../lifecycle/scope.js";
import { setPluginStrict } from "../lifecycle/strict-default.js";
import { sendTrialsToLiveViewer } from "./live-trials-artifacts.js";
import { LATE_CALLS_META } from "./late-call-reporter.js";
import { lazyMatchers } from "../lifecycle/lazy-matchers.js";
import { applySharedOptions, errorTexts, readOptions, readTestPath } from "./plugin-options-in-worker.js";
import { scopeEachTest } from "./test-scopes.js";
import type { VitestApi } from "./vitest-api.js";

/**
 * Installs the guards at the process's edges (the run is hermetic unless `live`), registers the matchers
 * (`matchers`, or the built ones, loaded at their first use), gives every test its scope and checks it when the
 * test ends (unused rules, violations, turns still running; the turns on `task.meta`), and fails the file for
 * calls that arrive after their test ended.
 */
export async function installSetup(vitest: VitestApi, matchers?: object): Promise<void> {
  const options = readOptions(vitest);
  runFlags.verbose = options.verbose === true;
  runFlags.setup = "vitest";
  startGuards(options);
  answerProviderHosts();
  vitest.expect.extend(matchers ?? lazyMatchers());
  await applySharedOptions(options, (path) => vitest.vi.importActual(path));
  useCassetteMode(options.cassette);
  resetCassetteWriters();
  setPluginStrict(options.strict);
  setPluginAllowHosts(options.allowHosts);
  runFlags.trialsConcurrency = options.trials?.concurrency;
  setProviderLimits(options.providers);
  useLimiterHost(options.limiter);
  sendTrialsToLiveViewer(vitest);
  // The file's own scope, for sessions made at module level or in `beforeAll`: closed when the file ends.
  const testFile = readTestPath(vitest);
  const fileScope = new TestScope(undefined, testFile, undefined, true);
  setActiveScope(fileScope);

  await scopeEachTest(vitest, fileScope, options.concurrent === true, async (scope, task) => {
    const { meta, sessionCount, warnings, failure } = finishTest(scope, options.unusedRules ?? "warn", errorTexts(task.result?.errors));
    // Reporters read it in the main process (JUnit's conversations, the viewer), after a merge of shards too;
    // the plugin says whether any of the run's reporters does.
    if (sessionCount > 0 && options.meta !== false) task.meta.tooltrace = outValue("task meta", meta());
    for (const warning of warnings) printOut("console", warning);
    if (failure) throw failure;
  });

  // A function with no parameters: Vitest 4 reads a hook's first parameter as a fixture list, and passes the
  // file as its second argument (3.2 as its first).
  vitest.afterAll(function finishFile() {
    // biome-ignore lint/complexity/noArguments: the hook's arguments differ across Vitest versions.
    const file = [...arguments].find((arg): arg is { meta: object } => typeof (arg as { meta?: unknown } | null)?.meta === "object");
    setActiveScope(undefined);
    const { warnings, failure } = finishTest(fileScope, options.unusedRules ?? "warn");
    for (const warning of warnings) printOut("console", warning);
    const late = takeLateCallReports(testFile);
    if (testFile !== undefined) fileFinished(testFile);
    // Late calls of files that already ended: the main process fails those files (never this one).
    const orphans = takeOrphanLateCalls();
    if (orphans.length > 0 && file !== undefined) (file.meta as Record<string, unknown>)[LATE_CALLS_META] = outValue("task meta", orphans);
    const problems = [
      ...(failure ? [failure.message] : []),
      ...(late.length > 0
        ? [
            `calls arrived after their test ended (the test timed out, or did not await the agent):\n${late.map((line) => `- ${line}`).join("\n")}`,
          ]
        : []),
    ];
    if (problems.length === 0) return;
    const error = new Error(outText("error", problems.join("\n")));
    // Where the user's code sent what failed the file (a request at import), never this hook's own line.
    const at = failure?.stack?.split("\n").filter((line) => line.startsWith("    at ")) ?? [];
    error.stack = `${error.name}: ${error.message}${at.length > 0 ? `\n${at.join("\n")}` : ""}`;
    throw error;
  });
}
