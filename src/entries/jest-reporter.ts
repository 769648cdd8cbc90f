/**
 * tooltrace's reports under Jest, as a Jest reporter: `reporters: ["default", "tooltrace/jest-reporter"]` writes
 * `tooltrace-report/index.html` (the trace viewer, as `tooltrace/reporter` writes it under Vitest), and, with its
 * options, the JSON file, a JUnit file with conversations and the OpenTelemetry export. Needs the Jest setup,
 * `setupFilesAfterEnv: ["tooltrace/jest"]`, which hands it each test's sessions.
 *
 * @module tooltrace/jest-reporter
 */
export { TooltraceJestReporter as default, TooltraceJestReporter, type TooltraceJestReporterOptions } from "../report/jest-reporter.js";
export type { OtelOptions } from "../report/otel-export.js";
export type { JestAssertionResult, JestTest, JestTestResult } from "../report/jest-results.js";
export type { JestWatchConfig } from "../report/jest-watched-file.js";
