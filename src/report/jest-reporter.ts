import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { printOut } from "../exits/out.js";
import { watchedJsonMessage } from "./jest-watched-file.js";
import { JEST_RUN_FOLDER_ENV, takeHandoffs } from "./jest-handoff.js";
import { hostJestLimiter } from "./jest-limiter.js";
import { type JestTest, type JestTestResult, jestModule } from "./jest-results.js";
import { TooltraceJsonReporter } from "./json-reporter.js";
import { checkOtelNode } from "./otel-export.js";
import { writeJunitFile } from "./junit-file.js";
import { limitsReporter } from "./limits-reporter.js";
import { type ReportedModule, reportTests } from "./report-data.js";
import { TooltraceReporter, type TooltraceReporterOptions } from "./report-reporter.js";

/** Options of {@link TooltraceJestReporter}: the viewer's, and the other files it may write. */
export interface TooltraceJestReporterOptions extends TooltraceReporterOptions {
  /** Also write the run's turns as JSON (`ReportData`, as `tooltrace/json-reporter` does): `true` for `tooltrace-turns.json`, or the file. */
  readonly json?: boolean | string;
  /** Also write a JUnit XML file with each failing eval's conversation as its `system-out`: `true` for `tooltrace-junit.xml`, or the file. */
  readonly junit?: boolean | string;
}

/** A file option: off, the default name, or the path given. */
function fileOption(option: boolean | string | undefined, fallback: string): string | undefined {
  if (option === undefined || option === false) return undefined;
  return resolve(option === true ? fallback : option);
}

/**
 * The reporters of each option set, across the runs of one process: in watch mode Jest makes its reporters
 * anew for each run, and the report must still hold the files that did not rerun (as under Vitest).
 */
const kept = new Map<string, { readonly viewer: TooltraceReporter; json: TooltraceJsonReporter | undefined }>();

/**
 * tooltrace's reports under Jest: `reporters: ["default", "tooltrace/jest-reporter"]` (options as
 * `["tooltrace/jest-reporter", { outputDir, json, junit, otel }]`) writes the trace viewer's page, the same one
 * the Vitest reporter writes (`npx tooltrace show`, `show --compare` and `readReport` read it); on GitHub Actions
 * the job summary; with its options the JSON file, a JUnit file with conversations, and the OpenTelemetry export.
 * The Jest setup (`tooltrace/jest`) hands it each test's sessions from the workers.
 */
export class TooltraceJestReporter {
  private readonly run = join(tmpdir(), `tooltrace-jest-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  private readonly reporters: { readonly viewer: TooltraceReporter; json: TooltraceJsonReporter | undefined };
  private readonly jsonFile: string | undefined;
  private readonly watching: boolean;
  private readonly junitFile: string | undefined;
  private readonly limits = limitsReporter();
  private modules: ReportedModule[] = [];

  /** Jest's constructor: the run's global config (whether it watches), then the options the config gives this reporter. */
  constructor(globalConfig?: { readonly watch?: boolean; readonly watchAll?: boolean }, options: TooltraceJestReporterOptions = {}) {
    const { json, junit, ...viewer } = options;
    // Refused when Jest reads its config, as the plugin's `otel` is: not after the run, when the spans are due.
    if (viewer.otel) checkOtelNode();
    const jsonFile = fileOption(json, "tooltrace-turns.json");
    const key = JSON.stringify([resolve(viewer.outputDir ?? "tooltrace-report"), jsonFile, viewer.otel]);
    const reporters = kept.get(key) ?? {
      viewer: new TooltraceReporter(viewer),
      json: jsonFile === undefined ? undefined : new TooltraceJsonReporter({ outputFile: jsonFile }),
    };
    kept.set(key, reporters);
    this.reporters = reporters;
    this.jsonFile = jsonFile;
    this.watching = globalConfig?.watch === true || globalConfig?.watchAll === true;
    this.junitFile = fileOption(junit, "tooltrace-junit.xml");
    // Before Jest starts its workers, which inherit it: where the Jest setup leaves each test's sessions.
    process.env[JEST_RUN_FOLDER_ENV] = this.run;
  }

  /** Jest's hook: a run (the first, or a watch-mode rerun) starts; Jest awaits it before it forks its workers. */
  async onRunStart(): Promise<void> {
    this.modules = [];
    mkdirSync(this.run, { recursive: true });
    // One `maxInFlight` per provider for every worker of the run: this process hosts the limiter.
    await hostJestLimiter();
    await this.limits.onTestRunStart();
    await this.reporters.viewer.onTestRunStart();
  }

  /** Jest's hook: a test file ended; its tests' sessions are in the run folder. */
  onTestFileResult(test: JestTest, result: JestTestResult): void {
    this.modules.push(jestModule(test, result, takeHandoffs(this.run, result.testFilePath)));
    const config = test.context?.config;
    if (!this.watching || this.reporters.json === undefined || this.jsonFile === undefined || config === undefined) return;
    const watched = watchedJsonMessage(this.jsonFile, config);
    if (watched === undefined) return;
    // Each write would start a rerun (under --watchAll, forever): the file is left out of this watch session.
    this.reporters.json = undefined;
    printOut("console", watched, "stderr");
  }

  /** Jest's hook: writes the reports of the run. */
  async onRunComplete(): Promise<void> {
    const modules = this.modules;
    this.modules = [];
    rmSync(this.run, { recursive: true, force: true });
    await this.reporters.json?.onTestRunEnd(modules);
    if (this.junitFile !== undefined) writeJunitFile(this.junitFile, reportTests(modules));
    // What the run's limits held, when a worker asked the limiter for a slot (as under Vitest, before the report).
    await this.limits.onTestRunEnd();
    await this.reporters.viewer.onTestRunEnd(modules);
  }
}

export default TooltraceJestReporter;
