import { PREFIX } from "../exits/errors.js";
import { globalSingleton } from "../base/global-state.js";
import { outText, printOut } from "../exits/out.js";

/** A call that arrived after its session closed, and the test file that session belongs to. */
export interface LateCallReport {
  /** The test file the session was created in; `undefined` outside any file (a script, Jest without paths). */
  readonly file: string | undefined;
  readonly line: string;
}

const state = globalSingleton("lateCalls", () => ({ reports: [] as LateCallReport[], finished: new Set<string>() }));

/**
 * Reports a call that arrived after its session closed (its test ended or timed out). Its test can no
 * longer fail, so the report is printed at once and kept for its file, which fails with it; a file that
 * has already finished is failed by the main process (see `takeOrphanLateCalls`). Never another file.
 */
export function reportLateCall(message: string, file: string | undefined): void {
  const line = outText("error", `${PREFIX} ${message}`);
  state.reports.push({ file, line });
  printOut("console", file === undefined ? line : `${line}\n  (from ${file})`);
}

/** Takes the reports of sessions created in `file` (or, with no file, every report). */
export function takeLateCallReports(file?: string): string[] {
  const taken = file === undefined ? state.reports : state.reports.filter((report) => report.file === file);
  state.reports = file === undefined ? [] : state.reports.filter((report) => report.file !== file);
  return taken.map((report) => report.line);
}

/** Marks `file` finished: a late call of its sessions from now on can no longer fail it from here. */
export function fileFinished(file: string): void {
  state.finished.add(file);
}

/** Takes the reports whose file has already finished, for the runner's main process to fail that file. */
export function takeOrphanLateCalls(): LateCallReport[] {
  const orphans = state.reports.filter((report) => report.file !== undefined && state.finished.has(report.file));
  state.reports = state.reports.filter((report) => !orphans.includes(report));
  return orphans;
}
