import { resolve } from "node:path";
import { writeOut } from "../exits/out.js";
import { runLimiterStats } from "../base/provider-gate.js";
import { type ReportedModule, reportData, reportTests } from "./report-data.js";

/** Options of {@link TooltraceJsonReporter}. */
export interface TooltraceJsonReporterOptions {
  /** The file. Default `tooltrace-turns.json` in the working folder. */
  readonly outputFile?: string;
}

/**
 * A Vitest reporter that writes the run's turns in their documented JSON form (`ReportData`: every test with
 * its sessions' `TurnJson`s), and nothing else: `reporters: ["default", "tooltrace/json-reporter"]`.
 */
export class TooltraceJsonReporter {
  private readonly outputFile: string;

  constructor(options: TooltraceJsonReporterOptions = {}) {
    this.outputFile = resolve(options.outputFile ?? "tooltrace-turns.json");
  }

  async onTestRunEnd(testModules: readonly ReportedModule[]): Promise<void> {
    const tests = reportTests(testModules);
    writeOut("json report", this.outputFile, JSON.stringify(reportData(tests, undefined, await runLimiterStats()), null, 2));
  }
}
