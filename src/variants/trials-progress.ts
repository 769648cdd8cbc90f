import { message } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import { liveTrials } from "../base/live-trials.js";
import type { TrialRun } from "./trials.js";

/** After each trial: {@link progressLine}, and the trial to a watch session's live viewer when one reads it. */
export interface TrialsProgress {
  (runs: readonly TrialRun[]): void;
  /** What was sent to the live viewer has arrived: before the test's result does. */
  sent(): Promise<void>;
}

/**
 * Reports the trials' progress as each finishes (in the order they finish): a line in the terminal (see
 * {@link progressLine}) and, in a watch session whose live viewer is on, the trial itself for the open page.
 */
export function trialsProgress(name: string, count: number, test: object | undefined, minPassRate: number | undefined): TrialsProgress {
  const line = progressLine(name, count);
  const sink = test === undefined ? undefined : liveTrials.sink;
  liveTrials.calls += 1;
  const call = liveTrials.calls;
  const pending: Promise<unknown>[] = [];
  const progress = (runs: readonly TrialRun[]) => {
    line(runs);
    const last = runs.at(-1);
    if (sink === undefined || test === undefined || last === undefined) return;
    const { index, seed, passed, reason } = last;
    const trial = { index, seed, passed, ...(reason !== undefined ? { reason } : {}) };
    const sending = sink(test, { call, name, count, ...(minPassRate !== undefined ? { minPassRate } : {}), trial });
    // A progress that did not arrive leaves the page as it was: the test's result replaces it.
    if (sending !== undefined) pending.push(sending.catch(() => undefined));
  };
  return Object.assign(progress, { sent: () => Promise.all(pending).then(() => undefined) });
}

/** After each trial (in the order they finish): a line saying how far the trials are, first after 2 s, then every 5 s (quick trials say nothing). */
export function progressLine(name: string, count: number): (runs: readonly TrialRun[]) => void {
  const started = performance.now();
  let next = started + 2000;
  return (runs) => {
    const now = performance.now();
    if (now < next || runs.length === count) return;
    next = now + 5000;
    const passed = runs.filter((trial) => trial.passed).length;
    printOut(
      "console",
      message(`trials of ${name}: ${runs.length} of ${count} run, ${passed} passed (${((now - started) / 1000).toFixed(0)} s)`),
      "log",
    );
  };
}
