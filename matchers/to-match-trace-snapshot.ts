import { usageError } from "../src/exits/errors.js";
import { outValue } from "../src/exits/out.js";
import { diffTraceSnapshots } from "../src/trace/trace-snapshot-diff.js";
import { traceSnapshot, type TraceSnapshot, type TraceSnapshotOptions } from "../src/trace/trace-snapshot.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";

export type { TraceSnapshotOptions };

/** Options of `toMatchTraceSnapshot`: what the snapshot keeps, and a hint for several snapshots in one test. */
export interface TraceSnapshotMatcherOptions extends TraceSnapshotOptions {
  readonly hint?: string;
}

/** The part of Vitest's and Jest's snapshot state a trace snapshot uses (both have it as `this.snapshotState`). */
export interface SnapshotState {
  match(options: {
    testId?: string;
    testName: string;
    received: unknown;
    isInline: boolean;
    inlineSnapshot?: string;
    error?: Error;
    /** The matcher's name, so Vitest finds the call to write an inline snapshot into. */
    assertionName?: string;
  }): {
    pass: boolean;
    actual?: string;
    expected?: string;
  };
}

/** The matcher context of a trace snapshot: Vitest's or Jest's, with its snapshot state. */
export interface SnapshotContext extends MatcherContext {
  readonly snapshotState?: SnapshotState;
  readonly currentTestName?: string;
  /** Vitest's running test. */
  readonly task?: { readonly id: string };
}

/**
 * The turn's (or session's) trace matches the snapshot stored in the test's snapshot file, on the runner's own
 * snapshot state: written the first time, updated with `-u`, reported obsolete when no test checks it. The
 * snapshot keeps what is stable from run to run (see {@link TraceSnapshotOptions}); a failure is a structural
 * diff per turn.
 */
export function toMatchTraceSnapshot(this: SnapshotContext, received: unknown, options: TraceSnapshotMatcherOptions = {}): MatcherResult {
  return matchTraceSnapshot(this, "toMatchTraceSnapshot", received, options, false, undefined);
}

/**
 * {@link toMatchTraceSnapshot}, with the snapshot written into the test file by the runner: as the only
 * argument, or after the options (`toMatchInlineTraceSnapshot({ models: false }, \`...\`)`), as Vitest's own
 * `toMatchInlineSnapshot(properties, snapshot)` takes them.
 */
export function toMatchInlineTraceSnapshot(
  this: SnapshotContext,
  received: unknown,
  optionsOrSnapshot?: TraceSnapshotMatcherOptions | string,
  inlineSnapshot?: string,
): MatcherResult {
  const options = typeof optionsOrSnapshot === "object" && optionsOrSnapshot !== null ? optionsOrSnapshot : {};
  const snapshot = typeof optionsOrSnapshot === "string" ? optionsOrSnapshot : inlineSnapshot;
  return matchTraceSnapshot(this, "toMatchInlineTraceSnapshot", received, options, true, snapshot);
}

function matchTraceSnapshot(
  context: SnapshotContext,
  matcher: string,
  received: unknown,
  options: TraceSnapshotMatcherOptions,
  isInline: boolean,
  inlineSnapshot: string | undefined,
): MatcherResult {
  const state = context.snapshotState;
  if (state === undefined) throw usageError(`${matcher} needs the runner's snapshot state: call it inside a Vitest or Jest test.`);
  if (context.isNot) throw usageError(`${matcher} cannot be used with .not.`);
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace(`${matcher} (a turn or a session)`, received) };
  // Vitest's snapshot state knows its test file; Jest's does not (and a Jest run may inherit VITEST from its parent).
  const vitest = "testFilePath" in state;
  if (isInline && vitest && typeof (state as { processDomainSnapshot?: unknown }).processDomainSnapshot !== "function")
    throw usageError(
      `${matcher} needs Vitest 4.1 or later: this Vitest writes inline snapshots only for its own matchers.`,
      "use toMatchTraceSnapshot() (the snapshot file), or upgrade Vitest.",
    );
  const { hint, ...keep } = options;
  // What the runner writes into the snapshot file, committed with the tests: redacted.
  const snapshot = outValue("snapshot", traceSnapshot(trace.turns, keep));
  const name = context.currentTestName ?? "";
  // Vitest names a hinted snapshot `test > hint`, Jest `test: hint`.
  const testName = hint === undefined ? name : `${name}${vitest ? " > " : ": "}${hint}`;
  const result = state.match({
    ...(context.task ? { testId: context.task.id } : {}),
    testName,
    received: JSON.stringify(snapshot, null, 2),
    isInline,
    ...(inlineSnapshot !== undefined ? { inlineSnapshot: stripIndentation(inlineSnapshot) } : {}),
    error: new Error("snapshot"),
    assertionName: matcher,
  });
  if (result.pass) return { pass: true, message: () => `${matcher}: the trace matches its snapshot.` };
  const stored = parseStored(result.expected);
  return {
    pass: false,
    message: () =>
      reportSections(
        context,
        matcher,
        stored === undefined ? "a stored trace snapshot" : `the stored trace snapshot (${turns(stored.turns.length)})`,
        `a trace of ${turns(snapshot.turns.length)} that differs`,
        [
          stored === undefined && result.expected !== undefined
            ? `The stored snapshot is not a trace snapshot's JSON; the runner's diff:\n${context.utils.diff?.(result.expected, result.actual) ?? result.expected}`
            : stored === undefined
              ? `No snapshot is stored for "${testName}" and this run may not write one (CI). Fix: run the test once locally, or with -u, and commit the snapshot.`
              : `Structural diff (stored → this run; update with -u when the change is intended):\n${diffTraceSnapshots(stored, snapshot)}`,
        ],
      ),
  };
}

/** The stored snapshot: the runner serializes the JSON text as a string, in double quotes. */
function parseStored(expected: string | undefined): TraceSnapshot | undefined {
  if (expected === undefined) return undefined;
  const text = expected.trim();
  try {
    const parsed = JSON.parse(text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text) as unknown;
    const turns = (parsed as TraceSnapshot | null)?.turns;
    // A snapshot edited by hand into another shape gets the runner's plain diff instead.
    const shaped = Array.isArray(turns) && turns.every((turn) => turn !== null && typeof turn === "object" && Array.isArray(turn.calls));
    return shaped ? (parsed as TraceSnapshot) : undefined;
  } catch {
    return undefined;
  }
}

/** An inline snapshot as written in the test file, without the indentation the file gave it. */
function stripIndentation(snapshot: string): string {
  const lines = snapshot.split("\n");
  if (lines.length < 3 || lines[0]?.trim() !== "" || lines[lines.length - 1]?.trim() !== "") return snapshot;
  const indentation = /^\s*/.exec(lines[1] ?? "")?.[0] ?? "";
  const body = lines.slice(1, -1);
  if (!body.every((line) => line === "" || line.startsWith(indentation))) return snapshot;
  // Jest compares the surrounding line breaks too; Vitest trims them.
  return `\n${body.map((line) => line.slice(indentation.length)).join("\n")}\n`;
}

function turns(count: number): string {
  return `${count} turn${count === 1 ? "" : "s"}`;
}
