/**
 * The trace viewer's Vitest reporter: `reporters: ["default", "tooltrace/reporter"]` writes
 * `tooltrace-report/index.html` (open it from disk) and `report.json`.
 *
 * @module tooltrace/reporter
 */
export { TooltraceReporter as default, TooltraceReporter, type TooltraceReporterOptions } from "../report/report-reporter.js";
export type { ReportData, ReportTest, ReportedModule, ReportedCase } from "../report/report-data.js";
export type { OtelOptions } from "../report/otel-export.js";
export { viewerHtml } from "../report/viewer-html.js";
export { reportData } from "../report/report-data.js";
