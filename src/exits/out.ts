import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Redactor } from "../secrets/redactor.js";
import { writeAtomically } from "./atomic-write.js";
import { TooltraceError } from "./errors.js";
import { noWorkflowCommands } from "./excerpt.js";
import { redactForReport, redactReportText, redactShaped, redactValuesIn } from "./redact.js";
import { EXITS, type ExitName, noteExit } from "./registry.js";

/** The exits of each kind, by medium (see {@link EXITS}). */
type ExitOf<M extends string> = { [K in ExitName]: (typeof EXITS)[K]["medium"] extends M ? K : never }[ExitName];

/** Exits whose bytes people read: a document or text, redacted whole as the last step. */
export type DocumentExit = Exclude<ExitOf<"text" | "json" | "html" | "markdown">, "cassette">;

/**
 * A finished document for `exit`, as it may leave: text and Markdown redacted whole, and no line of them a
 * workflow command (CI logs and pull-request comments show them); a page or a JSON file, whose writer redacted
 * each value it holds, redacted of every exact secret value (idempotent either way: what was redacted stays). Escaping the document's own parts for its
 * medium is its writer's, with `escape.ts`.
 */
export function outText(exit: DocumentExit, text: string): string {
  noteExit(exit);
  const medium = EXITS[exit].medium;
  // A page or a JSON file is built from values redacted as values: its last pass replaces exact secrets only,
  // since its code and markup must not be read as pairs. Text and Markdown are redacted whole.
  if (medium === "html" || medium === "json") return redactValuesIn(text);
  return noWorkflowCommands(redactReportText(text));
}

/** A value the runner or an exporter keeps (task metadata, a snapshot, a span's attributes), redacted. */
export function outValue<T>(exit: ExitOf<"value">, value: T): T {
  noteExit(exit);
  return redactForReport(value);
}

/**
 * Writes a cassette: its document redacted by the session's own rules (`cassette.redact`: a cassette keeps
 * what replay needs, such as a reasoning block's signature, that a report would hide) and scanned for
 * well-known key formats, which refuse the write with where one is; whole or not at all.
 */
export function writeCassette(path: string, document: object, redactor: Redactor): void {
  noteExit("cassette");
  const { document: redacted, leak } = redactor.checked(document);
  if (leak !== undefined)
    throw new TooltraceError(
      `it would keep what looks like ${leak.kind} at ${leak.pointer || "/"}.`,
      "name the field or the value in `cassette: { redact: { fields, values } }`, or stub the call that returns it.",
    );
  writeAtomically(path, `${JSON.stringify(redacted, null, 2)}\n`);
}

/** Writes a document to `path` whole or not at all (a temporary file renamed over it), through {@link outText}. */
export function writeOut(exit: DocumentExit, path: string, text: string): void {
  writeAtomically(path, outText(exit, text));
}

/** Appends to a document (a job summary, a report of lines), through {@link outText}. */
export function appendOut(exit: DocumentExit, path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, outText(exit, text));
}

/** Where a line goes: the console (which a runner shows under the test that printed it) or a stream. */
export type LineSink = "log" | "warn" | "error" | "stdout" | "stderr";

/** Prints `text` through {@link outText}: a warning, a note, a command's output. */
export function printOut(exit: "console" | "command output" | "junit output", text: string, sink: LineSink = "warn"): void {
  const shown = outText(exit, text);
  if (sink === "stdout" || sink === "stderr") process[sink].write(shown.endsWith("\n") ? shown : `${shown}\n`);
  else console[sink](shown);
}

/**
 * Writes a file only a process tooltrace starts reads (the stub rules an MCP server serves, a CLI agent's
 * settings, a run's lock): readable by this user alone, in a folder the caller made and removes. Never
 * redacted: the process must read what the test wrote.
 */
export function writePrivate(exit: ExitOf<"private">, path: string, text: string, options: { readonly exclusive?: boolean } = {}): void {
  noteExit(exit);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Exclusive: fails with EEXIST when the file is there (a claim another process holds).
  writeFileSync(path, text, { mode: 0o600, flag: options.exclusive === true ? "wx" : "w" });
  chmodSync(path, 0o600);
}

/** Writes a source file `init` made from its templates or the user's own config: never redacted, whole or not at all. */
export function writeSource(exit: ExitOf<"source">, path: string, text: string): void {
  noteExit(exit);
  writeAtomically(path, text);
}

/** What a matcher (Vitest's or Jest's `expect.extend`) returns. */
export interface RunnerMatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
  readonly actual?: unknown;
  readonly expected?: unknown;
}

/**
 * A matcher's result as it may reach the runner: its message (built only when shown) through {@link outText},
 * and the expected and actual values the runner's diff prints redacted in their own shape, when read.
 */
export function outMatcherResult(exit: "matcher message" | "judge message", result: RunnerMatcherResult): RunnerMatcherResult {
  const out: { pass: boolean; message: () => string; actual?: unknown; expected?: unknown } = {
    pass: result.pass,
    message: () => outText(exit, result.message()),
  };
  if ("actual" in result) Object.defineProperty(out, "actual", { enumerable: true, get: () => redactShaped(result.actual) });
  if ("expected" in result) Object.defineProperty(out, "expected", { enumerable: true, get: () => redactShaped(result.expected) });
  return out;
}
