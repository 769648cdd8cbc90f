import { relative, sep } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { redactForReport, redactReportText } from "../exits/redact.js";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import { TRACE_FORMAT_VERSION } from "../trace/turn-json.js";
import { addCost, type CostTotal } from "../trace/cost.js";
import { addProviderWaits, type ProviderWaitTotal } from "../trace/provider-waits.js";
import type { LimiterKeyStats } from "../base/limiter-host.js";

/** One test of a run, as the viewer shows it. */
export interface ReportTest {
  /** Unique in the report, for links (`#test=<id>`). */
  readonly id: string;
  readonly file: string;
  readonly fullName: string;
  readonly state: "passed" | "failed" | "skipped" | "pending";
  readonly durationMs?: number;
  /** The failure messages, without terminal colours. */
  readonly errors: readonly string[];
  /** The sessions the test ran (`task.meta.tooltrace`), when it ran any. */
  readonly meta?: TooltraceTaskMeta;
  /** Not a test: its file's errors outside its tests (the file failed to load, or an error came after its tests). */
  readonly fileErrors?: true;
  /** When the test's file did not rerun in watch mode: the time (ISO) of the earlier run this result is from. */
  readonly fromRun?: string;
  /** What changed since the previous run of this test (see {@link TestChange}); absent when nothing did, or it never ran before. */
  readonly sinceLast?: TestChange;
}

/** One run of a test, as {@link TestChange} compares it. */
export interface TestRunSide {
  readonly state: ReportTest["state"];
  /** Tokens its sessions' turns used. */
  readonly tokens: number;
  /** Its sessions' turns' time end to end (the test's own duration when it ran no session). */
  readonly durationMs: number;
  /** Each judge's mean score over its turns, by judge name. */
  readonly scores?: Readonly<Record<string, number>>;
}

/** What changed in a test since its previous run, as the report's comparison of two runs computes it. */
export interface TestChange {
  readonly before: TestRunSide;
  readonly after: TestRunSide;
  /** The structural trajectory diff per session whose tool sequence changed. */
  readonly trajectory: readonly { readonly session: string; readonly diff: string }[];
}

/** One run of a report's history: when it started (ISO), its counts over the whole suite, how long it took. */
export interface RunSummary {
  readonly at: string;
  readonly tests: number;
  readonly failed: number;
  readonly durationMs: number;
}

/** What a report holds: every test of the run, with its sessions' turns in their JSON form. */
export interface ReportData {
  readonly version: typeof TRACE_FORMAT_VERSION;
  readonly generatedAt: string;
  readonly tests: readonly ReportTest[];
  /**
   * What the run's calls to a real model cost: the sum of its tests' `meta.cost` (USD, and how many calls had
   * no price); absent when no test made one.
   */
  readonly cost?: CostTotal;
  /**
   * What the run's calls to a real model waited on the providers: the sum of its tests' `meta.providerWaits`
   * (queued under the run's limits, rate-limit answers waited out); absent when no call waited.
   */
  readonly providerWaits?: ProviderWaitTotal;
  /** The run's limits by `provider/model`, with what the run's limiter counted (the plugin's `providers`). */
  readonly providerLimits?: Readonly<Record<string, LimiterKeyStats>>;
  /** The last runs written to the report's folder, oldest first (the reporter keeps 20). */
  readonly history?: readonly RunSummary[];
}

/** How many runs a report's {@link ReportData.history} keeps. */
export const HISTORY_LENGTH = 20;

/** The part of a Vitest test case the report reads (structural: Vitest's types are not a dependency). */
export interface ReportedCase {
  readonly id: string;
  readonly fullName: string;
  readonly module: { readonly moduleId: string; readonly project?: ReportedProject };
  meta(): Record<string, unknown>;
  result(): { readonly state: string; readonly errors?: readonly { readonly message?: string; readonly stack?: string }[] };
  diagnostic(): { readonly duration?: number } | undefined;
}

/** The part of a Vitest test module the reporters walk. */
export interface ReportedModule {
  readonly moduleId?: string;
  readonly project?: ReportedProject;
  readonly children: { allTests(): Iterable<ReportedCase> };
  /** What failed outside its tests: the file did not load, or its collection threw. */
  errors?(): readonly { readonly message?: string; readonly stack?: string }[];
}

/** Every test of a run's modules, as the report keeps them; a file that failed to load, or had errors outside its tests, adds one failed entry. */
export function reportTests(modules: readonly ReportedModule[]): ReportTest[] {
  return modules.flatMap(moduleTests);
}

/** One module's tests, as {@link reportTests} keeps them. */
export function moduleTests(module: ReportedModule): ReportTest[] {
  const tests = [...module.children.allTests()].map(reportTest);
  const errors = module.errors?.() ?? [];
  if (errors.length === 0 || module.moduleId === undefined) return tests;
  const failed: ReportTest = {
    id: `${module.moduleId}#file`,
    file: projectPath(module.moduleId, module.project),
    fullName: tests.length === 0 ? "(the file failed to load)" : "(errors outside its tests)",
    state: "failed",
    errors: errors.map((error) => redactReportText(stripVTControlCharacters(error.message ?? error.stack ?? ""))),
    fileErrors: true,
  };
  return [failed, ...tests];
}

/** A test case as the report keeps it. */
export function reportTest(testCase: ReportedCase): ReportTest {
  const meta = testCase.meta().tooltrace as TooltraceTaskMeta | undefined;
  return reportTestWith(testCase, meta === undefined ? undefined : redactForReport(meta));
}

/** A test case as the report keeps it, with its sessions as given: `meta` redacted already (see {@link reportTest}). */
export function reportTestWith(testCase: ReportedCase, meta: TooltraceTaskMeta | undefined): ReportTest {
  const result = testCase.result();
  const state = result.state === "passed" || result.state === "failed" || result.state === "skipped" ? result.state : "pending";
  const duration = testCase.diagnostic()?.duration;
  return {
    id: testCase.id,
    file: projectPath(testCase.module.moduleId, testCase.module.project),
    fullName: testCase.fullName,
    state,
    ...(duration !== undefined ? { durationMs: duration } : {}),
    errors: (result.errors ?? []).map((error) => redactReportText(stripVTControlCharacters(error.message ?? error.stack ?? ""))),
    ...(meta !== undefined ? { meta } : {}),
  };
}

/** The report of a run. */
export function reportData(
  tests: readonly ReportTest[],
  history?: readonly RunSummary[],
  limits?: ReadonlyMap<string, LimiterKeyStats>,
): ReportData {
  const cost = runCost(tests);
  let providerWaits: ProviderWaitTotal | undefined;
  for (const test of tests) providerWaits = addProviderWaits(providerWaits, test.meta?.providerWaits);
  return {
    version: TRACE_FORMAT_VERSION,
    generatedAt: new Date().toISOString(),
    tests,
    ...(Object.keys(cost).length > 0 ? { cost } : {}),
    ...(providerWaits !== undefined ? { providerWaits } : {}),
    ...(limits !== undefined && limits.size > 0 ? { providerLimits: Object.fromEntries(limits) } : {}),
    ...(history ? { history } : {}),
  };
}

/** What a run's tests cost: the sum of their `meta.cost`. */
export function runCost(tests: readonly ReportTest[]): CostTotal {
  let total: CostTotal = {};
  for (const test of tests) if (test.meta?.cost !== undefined) total = addCost(total, test.meta.cost);
  return total;
}

/** The part of a Vitest project the reports read: its root, and its name (which tells apart one file in two projects). */
export interface ReportedProject {
  readonly name?: string;
  readonly config: { readonly root: string };
}

/** A test file as reports show it: relative to the project's root, so a CI artifact never shows the runner's layout. */
function projectPath(file: string, project: ReportedProject | undefined): string {
  return (
    relative(project?.config.root ?? process.cwd(), file)
      .split(sep)
      .join("/") || file
  );
}

/** A run's counts as reports print them: tests, failed tests, and files with errors outside their tests. */
export function reportCounts(tests: readonly ReportTest[]): { tests: number; passed: number; failed: number; fileErrors: number } {
  let count = 0;
  let passed = 0;
  let failed = 0;
  let fileErrors = 0;
  for (const test of tests) {
    if (test.fileErrors) fileErrors += 1;
    else {
      count += 1;
      if (test.state === "passed") passed += 1;
      if (test.state === "failed") failed += 1;
    }
  }
  return { tests: count, passed, failed, fileErrors };
}
