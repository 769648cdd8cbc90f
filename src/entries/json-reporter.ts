/**
 * The turns of a run in their documented JSON form, as a Vitest reporter: `reporters: ["default", "tooltrace/json-reporter"]`.
 *
 * @module tooltrace/json-reporter
 */
export { TooltraceJsonReporter as default, TooltraceJsonReporter, type TooltraceJsonReporterOptions } from "../report/json-reporter.js";
export type { ReportedModule, ReportedCase } from "../report/report-data.js";
