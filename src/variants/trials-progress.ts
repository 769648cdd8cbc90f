import { message } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import type { TrialRun } from "./trials.js";

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
