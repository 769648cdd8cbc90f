import { PREFIX } from "../base/errors.js";
import { globalSingleton } from "../base/global-state.js";

const state = globalSingleton("lateCalls", () => ({ reports: [] as string[] }));

/**
 * Reports a call that arrived after its session closed (its test ended or timed out). Its test can no
 * longer fail, so the report is printed at once and kept for the runner, which fails the file with it.
 */
export function reportLateCall(message: string): void {
  const line = `${PREFIX} ${message}`;
  state.reports.push(line);
  console.warn(line);
}

/** Returns the late-call reports since the last take, and clears them. */
export function takeLateCallReports(): string[] {
  return state.reports.splice(0);
}
