import { PREFIX } from "../errors.js";
import type { TestScope } from "./scope.js";
import type { UnusedRulesPolicy } from "./types.js";
import { toJsonSafe, type TooltraceTaskMeta } from "./test-report.js";

/** What a test runner does with the end-of-test findings. */
export interface FinishTestOutcome {
  readonly meta: TooltraceTaskMeta;
  /** Lines to print as warnings. */
  readonly warnings: readonly string[];
  /** When set, the test must fail with this error. */
  readonly failure: Error | undefined;
}

/**
 * Closes the sessions of a finished test (restoring every patched tool, even when the test failed) and
 * works out what the runner must report: unused rules, strict-mode violations, the turns for `task.meta`.
 * Shared by the Vitest and Jest entries.
 */
export function finishTest(scope: TestScope, defaultPolicy: UnusedRulesPolicy): FinishTestOutcome {
  const reports = scope.closeAll();
  const warnings: string[] = [];
  const errors: string[] = [];
  for (const report of reports) {
    if (report.violations.length > 0) errors.push(...report.violations.map((violation) => `${report.name}: ${violation}`));
    if (report.unusedRuleIds.length === 0) continue;
    const policy = report.unusedRules ?? defaultPolicy;
    const line = `${report.name}: stub rules never used: ${report.unusedRuleIds.join(", ")}. Remove them, or assert the calls you expect with toHaveCalledTool.`;
    if (policy === "error") errors.push(line);
    else if (policy === "warn") warnings.push(`${PREFIX} ${line}`);
  }
  const meta: TooltraceTaskMeta = {
    sessions: reports.map((report) => toJsonSafe({ name: report.name, turns: report.turns as TooltraceTaskMeta["sessions"][number]["turns"], unusedRuleIds: report.unusedRuleIds, violations: report.violations })),
  };
  const failure = errors.length === 0 ? undefined : new Error(`${PREFIX} ${errors.length === 1 ? errors[0] : `\n${errors.map((e) => `- ${e}`).join("\n")}`}`);
  return { meta, warnings, failure };
}
