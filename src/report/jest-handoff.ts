import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { lazyRequire } from "../base/lazy-require.js";
import { outValue, writeOut } from "../exits/out.js";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";

/**
 * Under Jest a reporter runs in the parent process and never sees a test's metadata: `tooltrace/jest-reporter`
 * names a run folder in this variable (Jest's workers inherit the parent's environment), and the Jest setup
 * leaves each test's sessions there, one JSON file per test, for the reporter to read when the file ends.
 * Without the variable (no tooltrace reporter configured) the setup writes nothing.
 */
export const JEST_RUN_FOLDER_ENV = "TOOLTRACE_JEST_RUN";

/** One test's sessions as a Jest worker hands them to the reporter. */
export interface JestHandoff {
  /** The test's name as Jest's results give it (`fullName`: its describe blocks and its title, by spaces). */
  readonly fullName: string;
  readonly meta: TooltraceTaskMeta;
}

// Loaded when a test hands its sessions over: a run without the reporter never needs it.
const crypto = lazyRequire<typeof import("node:crypto")>("node:crypto");

/** A test file's folder in the run folder: the same path names the same folder in the worker and the reporter. */
function fileFolder(run: string, testPath: string): string {
  return join(run, crypto().createHash("sha256").update(testPath).digest("hex").slice(0, 24));
}

let written = 0;

/**
 * In a Jest worker, after a test with sessions: hands them to the reporter (redacted as `task.meta` is, then
 * written through the `jest handoff` exit). Nothing when no tooltrace reporter named a run folder.
 */
export function handOffTest(testPath: string | undefined, fullName: string | undefined, meta: () => TooltraceTaskMeta): void {
  const run = process.env[JEST_RUN_FOLDER_ENV];
  if (!run || testPath === undefined || fullName === undefined) return;
  written += 1;
  const entry: JestHandoff = { fullName, meta: outValue("task meta", meta()) };
  const name = `${process.pid}-${String(written).padStart(8, "0")}.json`;
  writeOut("jest handoff", join(fileFolder(run, testPath), name), JSON.stringify(entry));
}

/** In the reporter, when a test file ends: its tests' sessions, in the order they finished; the files are gone after. */
export function takeHandoffs(run: string, testPath: string): JestHandoff[] {
  const folder = fileFolder(run, testPath);
  if (!existsSync(folder)) return [];
  const names = readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .sort();
  const entries = names.map((name) => JSON.parse(readFileSync(join(folder, name), "utf8")) as JestHandoff);
  rmSync(folder, { recursive: true, force: true });
  return entries;
}
