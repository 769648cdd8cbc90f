import { message, StubConfigError } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { appendOut, printOut } from "../exits/out.js";

/** What replay does with an entry recorded for a request the code no longer sends: warn (default) or fail the test. */
export type StalePolicy = "warn" | "error";

/** One recorded entry that no longer describes the code. */
export interface StaleEntry {
  readonly cassette: string;
  /** `model exchange 2`, `call 1 of get_weather`. */
  readonly entry: string;
  /** What changed, as diff lines (`- ...` recorded, `+ ...` now). */
  readonly changes: readonly string[];
  /** The command that records this cassette again, and nothing else. */
  readonly rerecord: string;
}

const warned = globalSingleton("staleWarned", () => new Set<string>());

/** The session's policy, else `TOOLTRACE_STALE_CASSETTES`, else `warn`. */
export function stalePolicy(own: StalePolicy | undefined): StalePolicy {
  const value = own ?? process.env.TOOLTRACE_STALE_CASSETTES;
  if (value === undefined || value === "" || value === "warn") return "warn";
  if (value === "error") return "error";
  throw new StubConfigError(
    { pointer: "/cassette/stale" },
    `${own === undefined ? "TOOLTRACE_STALE_CASSETTES" : "cassette.stale"} is ${JSON.stringify(value)}: it is "warn" or "error".`,
    'use "error" in CI to fail a test whose cassette no longer describes the code.',
    "session",
  );
}

/** The message of a stale entry: the cassette, the entry, what changed, and how to record it again. */
export function staleMessage(stale: StaleEntry): string {
  return message(
    `cassette ${stale.cassette}: ${stale.entry} was recorded for another request than the code sends now (it still replays):\n${stale.changes.map((line) => `    ${line.replaceAll("\n", "\n    ")}`).join("\n")}`,
    `record this cassette again: ${stale.rerecord}`,
  );
}

/**
 * Reports a stale entry: written to the check's report when `npx tooltrace cassettes check` runs the suite
 * (`TOOLTRACE_STALE_REPORT`), then a warning once per entry, or with `error` a violation that fails the test.
 */
export function reportStale(stale: StaleEntry, policy: StalePolicy, violation: (text: string) => void): void {
  noteForCheck(stale);
  if (policy === "error") {
    violation(staleMessage(stale));
    return;
  }
  const key = `${stale.cassette}\n${stale.entry}`;
  if (warned.has(key)) return;
  warned.add(key);
  printOut("console", staleMessage(stale));
}

/** Writes a stale entry (or a replay refused for a changed request) to the check's report, when a check runs. */
export function noteForCheck(stale: StaleEntry): void {
  const report = process.env.TOOLTRACE_STALE_REPORT;
  if (report !== undefined && report !== "") appendOut("stale report", report, `${JSON.stringify(stale)}\n`);
}
