import type { TooltracePluginOptions } from "./options.js";

/** Vitest's reporters that print to the terminal and never read a test's `meta`. */
const TERMINAL_REPORTERS = new Set([
  "default",
  "verbose",
  "dot",
  "basic",
  "tree",
  "tap",
  "tap-flat",
  "hanging-process",
  "github-actions",
  "agent",
  "minimal",
]);

/**
 * Whether a reporter of the run may read the tests' sessions on `task.meta.tooltrace`: any but Vitest's terminal
 * reporters (tooltrace's, JUnit, JSON, blob for a later merge, HTML, a reporter of the user's), the plugin's own
 * report or OpenTelemetry export, the GitHub job summary, or watch mode (the cassette watcher reads it).
 */
export function readsMeta(reporters: readonly unknown[], options: TooltracePluginOptions, watch: boolean): boolean {
  if (options.report || options.otel || watch || process.env.GITHUB_ACTIONS === "true") return true;
  return reporters.some((reporter) => {
    const name = Array.isArray(reporter) ? (reporter[0] as unknown) : reporter;
    return typeof name !== "string" || !TERMINAL_REPORTERS.has(name);
  });
}
