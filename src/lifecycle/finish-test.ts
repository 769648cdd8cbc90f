import { resolve } from "node:path";
import { PREFIX } from "../exits/errors.js";
import { outText } from "../exits/out.js";
import type { SessionReport, TestScope } from "./scope.js";
import { turnsCost } from "../trace/cost.js";
import { turnsProviderWaits } from "../trace/provider-waits.js";
import type { TooltraceTaskMeta, UnusedRulesPolicy } from "./test-report.js";
import { TRACE_FORMAT_VERSION } from "../trace/format-version.js";

/** What a test runner does with the end-of-test findings. */
export interface FinishTestOutcome {
  /** The test's sessions for reporters, built on the first call (a run nobody reports pays nothing): hand them out with `outValue`. */
  readonly meta: () => TooltraceTaskMeta;
  /** How many sessions the test closed. */
  readonly sessionCount: number;
  /** Lines to print as warnings (with `printOut`). */
  readonly warnings: readonly string[];
  /** When set, the test must fail with this error. */
  readonly failure: Error | undefined;
}

/**
 * Closes the sessions and resources of a finished test (restoring every patched tool, even when the test
 * failed) and works out what the runner must report: unused rules, violations, turns still running when the
 * test ended (with what they waited on), and the turns for `task.meta`. Shared by the Vitest and Jest entries.
 */
export function finishTest(scope: TestScope, defaultPolicy: UnusedRulesPolicy, alreadyReported = ""): FinishTestOutcome {
  // A refusal the test already failed with (a `fetch` the test awaited) is said once.
  const refusals = scope.takeRefusals().filter((refusal) => !alreadyReported.includes(firstLine(refusal)));
  const errors: string[] = [...refusals, ...scope.takeVisitorViolations()];
  const reports = scope.closeAll();
  let site: string | undefined;
  const warnings: string[] = [];
  for (const report of reports) {
    if (report.stillRunning) errors.push(`${report.name}: ${report.stillRunning}`);
    // A violation the test already failed with (a matcher's message listed it) is said once.
    const unsaid = report.violations.filter((violation) => !alreadyReported.includes(firstLine(violation)));
    errors.push(...unsaid.map((violation) => `${report.name}: ${violation}`));
    if (report.violations.length > 0 || report.stillRunning) site ??= report.sentAt;
    if (report.unusedRuleIds.length === 0) continue;
    const policy = report.unusedRules ?? defaultPolicy;
    const mocks = new Set(report.unusedMockIds ?? []);
    const rules = report.unusedRuleIds.filter((id) => !mocks.has(id));
    const never = [
      ...(rules.length > 0 ? [`stub rules never used: ${rules.join(", ")}`] : []),
      ...(mocks.size > 0 ? [`HTTP mocks never used: ${[...mocks].join(", ")}`] : []),
    ];
    const assert = `${rules.length > 0 ? "toHaveCalledTool" : ""}${rules.length > 0 && mocks.size > 0 ? " and " : ""}${mocks.size > 0 ? "toHaveRequested" : ""}`;
    const line = `${report.name}: ${never.join("; ")}. Remove them, or assert the calls you expect with ${assert}.`;
    if (policy === "error") errors.push(line);
    else if (policy === "warn") warnings.push(`${PREFIX} ${line}`);
  }
  let built: TooltraceTaskMeta | undefined;
  const meta = (): TooltraceTaskMeta => (built ??= buildMeta(reports, scope));
  const failure =
    errors.length === 0
      ? undefined
      : new Error(outText("error", `${PREFIX} ${errors.length === 1 ? errors[0] : `\n${errors.map((e) => `- ${e}`).join("\n")}`}`));
  // The test's own line (where the session's turn was sent, or a refusal's line) rather than tooltrace's hook.
  const at = site ?? lineIn(refusals[0]);
  if (failure !== undefined) failure.stack = `${failure.name}: ${failure.message}${at === undefined ? "" : `\n    at ${at}`}`;
  return { meta, sessionCount: reports.length + scope.trials.length, warnings, failure };
}

/** A message's first line, without tooltrace's prefix: what says whether a failure already carries it. */
function firstLine(text: string): string {
  return (text.replace(/^\[tooltrace\] /, "").split("\n")[0] ?? text).trim();
}

/** The `Sent from file:line:column` a refusal names, as an absolute location a runner maps to its code frame. */
function lineIn(refusal: string | undefined): string | undefined {
  const found = refusal === undefined ? undefined : /\n {2}Sent from (.+:\d+:\d+)/.exec(refusal)?.[1];
  return found === undefined ? undefined : resolve(found);
}

/** The test's sessions for reporters, with what their calls cost. */
function buildMeta(reports: readonly SessionReport[], scope: TestScope): TooltraceTaskMeta {
  const sessions = reports.map((report) => ({
    name: report.name,
    strict: report.strict,
    turns: report.turnsJson(),
    tools: report.offeredTools(),
    unusedRuleIds: [...report.unusedRuleIds],
    violations: [...report.violations],
    ...(report.cassette ? { cassette: report.cassette } : {}),
  }));
  const cost = turnsCost(sessions.flatMap((session) => session.turns));
  const providerWaits = turnsProviderWaits(sessions.flatMap((session) => session.turns));
  return {
    version: TRACE_FORMAT_VERSION,
    sessions,
    ...(Object.keys(cost).length > 0 ? { cost } : {}),
    ...(providerWaits !== undefined ? { providerWaits } : {}),
    ...(scope.trials.length > 0 ? { trials: [...scope.trials] } : {}),
  };
}
