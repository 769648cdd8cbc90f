import { appendFileSync } from "node:fs";
import { globalSingleton } from "../base/global-state.js";

/**
 * What an exit's bytes are, which decides how they are escaped: `text` for what the runner shows and lines on
 * a terminal or CI log (no line a workflow command), `json` and `html` and `markdown` for files of that kind,
 * `value` for data the runner keeps (task metadata, snapshot values, spans), `private` for a file only a
 * process tooltrace starts reads (mode 0600, in a folder of its own, removed when it ends; never redacted,
 * since the process must read what the test wrote), `source` for files `init` writes from its own templates.
 */
export type ExitMedium = "text" | "json" | "html" | "markdown" | "value" | "private" | "source";

/**
 * Every way out of tooltrace, by name: each byte it writes, prints, exports or hands the runner leaves
 * through one of these (src/exits), redacted first, cut after, escaped for its medium. The planted-secret
 * test (test/edges/every-exit.test.ts) reaches each one and scans what it wrote; `scripts/layers.mjs` refuses
 * a file outside src/exits that writes a file or prints.
 */
export const EXITS = {
  "matcher message": { medium: "text", what: "a failing matcher's message, and the values its diff shows" },
  "judge message": { medium: "text", what: "a judge's verdict in a failing toSatisfyJudge, with the prompt it showed" },
  error: { medium: "text", what: "an error tooltrace throws or fails a test with (its message and stack)" },
  "task meta": { medium: "value", what: "the sessions a test ran, as task.meta for reporters (and merged shards)" },
  "trials progress": {
    medium: "value",
    what: "each finished trial of a running test, as a Vitest artifact for the watch session's live viewer",
  },
  snapshot: { medium: "value", what: "the value toMatchTraceSnapshot hands the runner's snapshot file" },
  console: { medium: "text", what: "warnings and notes on stdout and stderr" },
  "command output": { medium: "text", what: "what npx tooltrace prints (show, merge, cassettes check, mcp serve)" },
  cassette: { medium: "json", what: "a cassette file" },
  "stale report": { medium: "json", what: "the stale entries cassettes check collects from the run it starts" },
  "viewer page": { medium: "html", what: "the viewer's index.html (reporter, show, merge)" },
  "comparison page": { medium: "html", what: "show --compare's page" },
  "comparison markdown": { medium: "markdown", what: "show --compare --markdown, for a pull-request comment or a log" },
  "job summary": { medium: "markdown", what: "the GitHub job summary (GITHUB_STEP_SUMMARY)" },
  "json report": { medium: "json", what: "tooltrace/json-reporter's file (and merge --json's)" },
  "junit output": { medium: "text", what: "each failing eval's conversation as its JUnit test case's system-out" },
  "jest handoff": {
    medium: "json",
    what: "a test's sessions, from a Jest worker to tooltrace/jest-reporter (a file in the run's folder, read and removed)",
  },
  "junit file": {
    medium: "text",
    what: "tooltrace/jest-reporter's (and merge --junit's) JUnit file, each failing eval's conversation as its system-out",
  },
  spans: { medium: "value", what: "OpenTelemetry spans sent to an OTLP endpoint" },
  "mcp definitions": { medium: "private", what: "the stub rules mcpServer() hands the server process it starts" },
  "cli agent files": { medium: "private", what: "the settings a CLI agent reads in its scratch home" },
  "run locks": { medium: "private", what: "who records into a cassette, in the temporary folder, for the run" },
  "init files": { medium: "source", what: "the config edit and the first eval that npx tooltrace init writes" },
} as const satisfies Record<string, { readonly medium: ExitMedium; readonly what: string }>;

/** The name of one way out (see {@link EXITS}). */
export type ExitName = keyof typeof EXITS;

const used = globalSingleton("exitsUsed", () => new Set<string>());

/**
 * Notes that `exit` was taken. With `TOOLTRACE_EXIT_LOG` set (the planted-secret test sets it), each exit's
 * name is appended to that file once per process, so the test knows every registered exit was reached.
 */
export function noteExit(exit: ExitName): void {
  if (used.has(exit)) return;
  used.add(exit);
  const log = process.env.TOOLTRACE_EXIT_LOG;
  if (log !== undefined && log !== "") appendFileSync(log, `${exit}\n`);
}
