import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { message } from "../exits/errors.js";
import type { StaleEntry } from "../cassettes/stale.js";

/** What `npx tooltrace cassettes check` found. */
export interface CassettesCheck {
  readonly output: string;
  readonly stale: readonly StaleEntry[];
  /** Vitest's exit code: a test may fail for another reason than a stale cassette. */
  readonly code: number;
}

/**
 * `npx tooltrace cassettes check [vitest args]`: runs the project's tests with every cassette replayed and
 * nothing recorded, and lists each entry recorded for a request the code no longer sends (another system
 * prompt, tools or schemas, model, user message, tool input), grouped by cassette, each with the command that
 * records that cassette again.
 */
export function cassettesCheck(cwd: string, args: readonly string[]): CassettesCheck {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-check-"));
  const report = join(folder, "stale.jsonl");
  try {
    const vitest = join(dirname(createRequire(join(cwd, "noop.js")).resolve("vitest/package.json")), "vitest.mjs");
    const run = spawnSync(process.execPath, [vitest, "run", "--reporter=dot", ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, TOOLTRACE_STALE_REPORT: report, TOOLTRACE_STALE_CASSETTES: "warn", TOOLTRACE_CASSETTE: "" },
      maxBuffer: 64 << 20,
    });
    const stale = readStale(report);
    return { output: describe(cwd, stale, run.status ?? 1), stale, code: run.status ?? 1 };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function readStale(report: string): StaleEntry[] {
  let text = "";
  try {
    text = readFileSync(report, "utf8");
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const entries: StaleEntry[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || seen.has(line)) continue;
    seen.add(line);
    entries.push(JSON.parse(line) as StaleEntry);
  }
  return entries;
}

function describe(cwd: string, stale: readonly StaleEntry[], code: number): string {
  const failing = code !== 0 ? "\nSome tests failed for other reasons too: run `npx vitest run` to see them." : "";
  if (stale.length === 0) return message(`every cassette replayed describes the code as it is.${code !== 0 ? failing : ""}`);
  const byCassette = new Map<string, StaleEntry[]>();
  for (const entry of stale) byCassette.set(entry.cassette, [...(byCassette.get(entry.cassette) ?? []), entry]);
  const lines = [
    message(
      `${stale.length} stale entr${stale.length === 1 ? "y" : "ies"} in ${byCassette.size} cassette${byCassette.size === 1 ? "" : "s"}:`,
    ),
  ];
  for (const [cassette, entries] of byCassette) {
    lines.push("", relative(cwd, cassette) || cassette);
    for (const entry of entries)
      lines.push(`  ${entry.entry}:`, ...entry.changes.map((change) => `    ${change.replaceAll("\n", "\n    ")}`));
    lines.push(`  record it again: ${(entries[0] as StaleEntry).rerecord}`);
  }
  return `${lines.join("\n")}${failing}`;
}
