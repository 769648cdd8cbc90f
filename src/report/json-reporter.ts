import { resolve } from "node:path";
import { writeOut } from "../exits/out.js";
import { runLimiterStats } from "../base/provider-gate.js";
import { type ReportedModule, reportData } from "./report-data.js";
import { ReportRuns } from "./report-runs.js";

/** Options of {@link TooltraceJsonReporter}. */
export interface TooltraceJsonReporterOptions {
  /** The file. Default `tooltrace-turns.json` in the working folder. */
  readonly outputFile?: string;
}

/**
 * A Vitest reporter that writes the run's turns in their documented JSON form (`ReportData`: every test with
 * its sessions' `TurnJson`s), and nothing else: `reporters: ["default", "tooltrace/json-reporter"]`. In watch
 * mode the file holds the whole suite: the files that reran, and the rest as they last ran (`fromRun`).
 */
export class TooltraceJsonReporter {
  private readonly outputFile: string;
  private readonly runs = new ReportRuns();
  private startedAt: number | undefined;

  constructor(options: TooltraceJsonReporterOptions = {}) {
    this.outputFile = resolve(options.outputFile ?? "tooltrace-turns.json");
  }

  /** Vitest's hook: a run (the first, or a watch-mode rerun) starts. */
  onTestRunStart(): void {
    this.startedAt = Date.now();
  }

  async onTestRunEnd(testModules: readonly ReportedModule[]): Promise<void> {
    const ended = Date.now();
    const started = this.startedAt ?? ended;
    this.startedAt = undefined;
    const suite = this.runs.record(testModules, new Date(started).toISOString(), ended - started);
    writeOut("json report", this.outputFile, JSON.stringify(reportData(suite.tests, undefined, await runLimiterStats()), null, 2));
  }
}
