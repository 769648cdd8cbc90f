/**
 * The trace viewer's Vitest reporter: `reporters: ["default", "tooltrace/reporter"]` writes
 * `tooltrace-report/index.html` (open it from disk; it holds the run's data).
 *
 * @module tooltrace/reporter
 */
export { TooltraceReporter as default, TooltraceReporter, type TooltraceReporterOptions } from "../report/report-reporter.js";
export type { ReportData, ReportTest, ReportedModule, ReportedCase, RunSummary, TestChange, TestRunSide } from "../report/report-data.js";
export type { OtelOptions } from "../report/otel-export.js";
export type { LimiterKeyStats } from "../base/limiter-host.js";
export type { SlotStats } from "../base/slots.js";
export { viewerHtml } from "../report/viewer-html.js";
export { reportData } from "../report/report-data.js";
export { readReport } from "../report/read-report.js";
export {
  compareReports,
  type Comparison,
  type ComparedTest,
  type ComparedSide,
  type StatusChange,
} from "../report/compare.js";
export { comparisonMarkdown } from "../report/compare-markdown.js";
export type { RateChange, RateInterval } from "../base/pass-rate-interval.js";
export type { ReportedProject } from "../report/report-data.js";
export type { LiveCase, LiveVitest } from "../report/live-viewer.js";
export type { RerunCase, RerunModule, RerunVitest } from "../report/vitest-rerun.js";
