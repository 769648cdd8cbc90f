import { message } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import { type LiveTrial, liveTrials } from "../base/live-trials.js";
import type { TrialRun } from "./trials.js";

/** After each trial: {@link progressLine}, and the trial to a watch session's live viewer when one reads it. */
export interface TrialsProgress {
  (runs: readonly TrialRun[]): void;
  /** Sends what is left for the live viewer and waits until all has arrived: before the test's result does. */
  sent(): Promise<void>;
}

/** The least time between two sends to the live viewer: quick trials go in batches (Vitest's own updates wait 100 ms). */
const SEND_EVERY_MS = 100;

/**
 * Reports the trials' progress as each finishes (in the order they finish): a line in the terminal (see
 * {@link progressLine}) and, in a watch session whose live viewer is on, the trials themselves for the open page.
 */
export function trialsProgress(name: string, count: number, test: object | undefined, minPassRate: number | undefined): TrialsProgress {
  const line = progressLine(name, count);
  const sink = test === undefined ? undefined : liveTrials.sink;
  liveTrials.calls += 1;
  const call = liveTrials.calls;
  const pending: Promise<unknown>[] = [];
  let unsent: LiveTrial[] = [];
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    if (sink === undefined || test === undefined || unsent.length === 0) return;
    last = performance.now();
    const sending = sink(test, { call, name, count, ...(minPassRate !== undefined ? { minPassRate } : {}), trials: unsent });
    unsent = [];
    // A progress that did not arrive leaves the page as it was: the test's result replaces it.
    if (sending !== undefined) pending.push(sending.catch(() => undefined));
  };
  const progress = (runs: readonly TrialRun[]) => {
    line(runs);
    const run = runs.at(-1);
    if (sink === undefined || run === undefined) return;
    const { index, seed, passed, reason } = run;
    unsent.push({ index, seed, passed, ...(reason !== undefined ? { reason } : {}) });
    const wait = last + SEND_EVERY_MS - performance.now();
    if (wait <= 0) send();
    else timer ??= setTimeout(send, wait);
  };
  return Object.assign(progress, {
    sent: () => {
      send();
      return Promise.all(pending).then(() => undefined);
    },
  });
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
