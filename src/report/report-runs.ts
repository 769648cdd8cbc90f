import { existsSync } from "node:fs";
import { HISTORY_LENGTH, moduleTests, type ReportedModule, type ReportTest, type RunSummary, reportCounts } from "./report-data.js";

/** One file's tests as its last run left them. */
interface ModuleEntry {
  readonly path: string | undefined;
  readonly run: number;
  readonly at: string;
  readonly tests: readonly ReportTest[];
}

/** The whole suite after one run, and the runs so far. */
export interface SuiteAfterRun {
  readonly tests: readonly ReportTest[];
  readonly history: readonly RunSummary[];
}

/**
 * What a reporter remembers across the runs of one process: in watch mode Vitest reports only the files
 * that reran, and the report must still hold the whole suite. Each file keeps its tests from the last run
 * that ran it; a file deleted since drops out.
 */
export class ReportRuns {
  private readonly modules = new Map<string, ModuleEntry>();
  private history: readonly RunSummary[];
  private runs = 0;

  /** `history`: the runs the report's folder already held, oldest first. */
  constructor(history: readonly RunSummary[] = []) {
    this.history = history.slice(-HISTORY_LENGTH);
  }

  /**
   * Records a run that started at `at` (ISO) and took `durationMs`; returns the suite as the report shows it.
   * `focus`: the tests a rerun asked for alone; the others of their files, which Vitest reports as skipped, keep
   * their earlier result.
   */
  record(modules: readonly ReportedModule[], at: string, durationMs: number, focus?: ReadonlySet<string>): SuiteAfterRun {
    const run = ++this.runs;
    for (const [index, module] of modules.entries()) {
      const key = keyOf(module, index, run);
      const before = this.modules.get(key);
      const kept = (test: ReportTest): ReportTest => {
        const earlier = before?.tests.find((old) => old.id === test.id);
        if (focus === undefined || focus.has(test.id) || test.state !== "skipped" || earlier === undefined) return test;
        return { ...earlier, fromRun: earlier.fromRun ?? before?.at ?? at };
      };
      this.modules.set(key, { path: module.moduleId, run, at, tests: moduleTests(module).map(kept) });
    }
    const tests: ReportTest[] = [];
    for (const [key, entry] of this.modules) {
      if (entry.run === run) tests.push(...entry.tests);
      else if (entry.path === undefined || !existsSync(entry.path)) this.modules.delete(key);
      else tests.push(...entry.tests.map((test) => ({ ...test, fromRun: entry.at })));
    }
    const counts = reportCounts(tests);
    this.history = [...this.history, { at, tests: counts.tests, failed: counts.failed, durationMs }].slice(-HISTORY_LENGTH);
    return { tests, history: this.history };
  }
}

/** A file by its project and path; one without a path is its run's alone, and leaves with it. */
function keyOf(module: ReportedModule, index: number, run: number): string {
  if (module.moduleId === undefined) return `\0${run}\0${index}`;
  return `${module.project?.name ?? ""}\0${module.moduleId}`;
}
