import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { message } from "../exits/errors.js";
import { printOut, writeOut } from "../exits/out.js";
import { type ReportData, type ReportedModule, reportData, reportTests } from "./report-data.js";
import { ReportRuns } from "./report-runs.js";
import { readReport } from "./read-report.js";
import { withSinceLast } from "./since-last.js";
import { writeGithubSummary } from "./github-summary.js";
import { exportToOtlp, type OtelOptions } from "./otel-export.js";
import { viewerHtml } from "./viewer-html.js";
import { reportLine } from "./report-line.js";
import type { LiveCase, LiveViewer, LiveVitest } from "./live-viewer.js";
import { runLimiterStats } from "../base/provider-gate.js";
import { LIVE_VIEWER_KEY } from "../base/live-trials.js";

/** Options of {@link TooltraceReporter}. */
export interface TooltraceReporterOptions {
  /** The report's folder. Default `tooltrace-report` in the working folder. */
  readonly outputDir?: string;
  /** Also send every turn as OpenTelemetry spans to an OTLP/HTTP endpoint (see {@link OtelOptions}). Default off. */
  readonly otel?: boolean | OtelOptions;
  /**
   * In watch mode, serve the viewer on 127.0.0.1 and update the open page as tests run, with reruns a click
   * away (see the README's viewer section). Default `true`; never outside watch mode.
   */
  readonly serve?: boolean;
  /** Open the served viewer in the default browser when the watch session starts. Default `false`. */
  readonly open?: boolean;
}

/**
 * A Vitest reporter that writes the run's trace viewer: one self-contained `index.html` (no server, no
 * network; open it from disk) with every test, its sessions' conversations and a timeline of each turn; the
 * page holds the run's data once (`readReport` reads it back). `reporters: ["default", "tooltrace/reporter"]`, or the plugin's
 * `tooltrace({ report: true })`.
 */
export class TooltraceReporter {
  private readonly outputDir: string;
  private readonly otel: OtelOptions | undefined;
  private runs: ReportRuns | undefined;
  /** The last report written (or, before the first, the one the folder held): what each test changed since. */
  private previous: ReportData | undefined;
  private startedAt: number | undefined;
  private readonly options: TooltraceReporterOptions;
  /** The served viewer of a watch session, loaded only then. */
  private live: Promise<LiveViewer | undefined> | undefined;

  constructor(options: TooltraceReporterOptions = {}) {
    this.options = options;
    this.outputDir = resolve(options.outputDir ?? "tooltrace-report");
    this.otel = options.otel === true ? {} : options.otel || undefined;
  }

  /** Vitest's hook: in watch mode (unless `serve: false`), the live viewer starts. */
  onInit(vitest: LiveVitest & { readonly config?: { readonly watch?: boolean }; provide?(key: string, value: unknown): void }): void {
    if (this.options.serve === false || vitest.config?.watch !== true) return;
    this.previous = previousReport(this.outputDir);
    // The workers send each trial as it finishes (see `sendTrialsToLiveViewer`): only while a page can show it.
    vitest.provide?.(LIVE_VIEWER_KEY, true);
    this.live = import("./live-viewer.js")
      .then(({ LiveViewer }) => LiveViewer.start(vitest, this.previous, this.options.open === true))
      .catch((error: unknown) => {
        printOut("console", message(`the live viewer did not start: ${error instanceof Error ? error.message : String(error)}`), "stderr");
        return undefined;
      });
  }

  /** Vitest's hook: a run (the first, or a watch-mode rerun) starts; its duration counts from here. */
  async onTestRunStart(): Promise<void> {
    this.startedAt = Date.now();
    (await this.live)?.runStarted();
  }

  /** Vitest's hook: a test starts (the live viewer marks it running). */
  async onTestCaseReady(testCase: LiveCase): Promise<void> {
    (await this.live)?.started(testCase);
  }

  /** Vitest's hook (4.0.11 and later): a running test's artifact (the live viewer shows its trials as they finish). */
  async onTestCaseArtifactRecord(testCase: LiveCase, artifact: unknown): Promise<void> {
    (await this.live)?.artifact(testCase, artifact);
  }

  /** Vitest's hook: a test's result (the live viewer shows it at once). */
  async onTestCaseResult(testCase: LiveCase): Promise<void> {
    (await this.live)?.finished(testCase, this.previous);
  }

  /** Vitest's hook: writes the report of the whole suite (in watch mode, the files that reran and the rest as they last ran). */
  async onTestRunEnd(testModules: readonly ReportedModule[]): Promise<void> {
    const ended = Date.now();
    const started = this.startedAt ?? ended;
    this.startedAt = undefined;
    const live = await this.live;
    // The run's last results reach the page now, not after the report of the whole suite is written.
    live?.flush();
    if (this.runs === undefined) {
      this.previous ??= previousReport(this.outputDir);
      this.runs = new ReportRuns(this.previous?.history ?? []);
    }
    // In watch mode only the files that reran are here: the report holds them and the rest of the suite.
    const suite = this.runs.record(testModules, new Date(started).toISOString(), ended - started, live?.focus);
    const tests = withSinceLast(suite.tests, this.previous);
    const data = reportData(tests, suite.history, await runLimiterStats());
    this.previous = data;
    writeOut("viewer page", join(this.outputDir, "index.html"), viewerHtml(data));
    live?.runEnded(data);
    // On GitHub Actions, the run's totals as the job's summary too.
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (process.env.GITHUB_ACTIONS === "true" && summary) writeGithubSummary(summary, reportTests(testModules), testModules);
    const folder = relative(process.cwd(), this.outputDir) || ".";
    const tail = live ? `live at ${live.url}` : `open it with: npx tooltrace show ${folder}`;
    printOut("console", `\n${reportLine(data, join(this.outputDir, "index.html"), tail)}`, "stdout");
    if (this.otel !== undefined) await exportToOtlp(reportTests(testModules), this.otel);
  }
}

/** The report the folder already holds; none when there is no report, or one tooltrace cannot read. */
function previousReport(folder: string): ReportData | undefined {
  if (!existsSync(join(folder, "index.html"))) return undefined;
  try {
    return readReport(folder);
  } catch {
    return undefined;
  }
}

export default TooltraceReporter;
