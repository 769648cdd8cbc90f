import { afterEach, expect, test } from "vitest";
import { trials } from "tooltrace";
import { type LiveTrialsProgress, liveTrials } from "../../src/base/live-trials.js";

afterEach(() => {
  liveTrials.sink = undefined;
});

/** A sink as the plugin's setup file sets one under a live viewer: what each send holds once it arrived (5 ms later). */
function recordingSink(): { sends: LiveTrialsProgress[]; tests: object[] } {
  const seen = { sends: [] as LiveTrialsProgress[], tests: [] as object[] };
  liveTrials.sink = (testObject, progress) => {
    seen.tests.push(testObject);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        seen.sends.push(progress);
        resolve();
      }, 5),
    );
  };
  return seen;
}

test("under a live viewer, every trial is sent once, quick ones in batches, all before trials() returns", async ({ task }) => {
  const seen = recordingSink();
  const report = await trials(40, { seed: 7, minPassRate: 0, print: false }, ({ index }) => {
    if (index % 4 === 0) throw new Error(`trial ${index} <b>failed</b>`);
  });
  // Arrived before trials() returned: the test's result comes after its progress.
  const sent = seen.sends.flatMap((send) => send.trials);
  expect(sent.map((trial) => trial.index).sort((a, b) => a - b)).toEqual(report.runs.map((run) => run.index));
  expect(seen.sends.length).toBeLessThan(40);
  expect(seen.sends[0]?.trials).toHaveLength(1);
  expect(new Set(seen.sends.map((send) => send.call)).size).toBe(1);
  expect(seen.sends.every((send) => send.count === 40 && send.minPassRate === 0)).toBe(true);
  expect(sent.filter((trial) => !trial.passed).map((trial) => [trial.index, trial.seed, trial.reason])).toEqual(
    [0, 4, 8, 12, 16, 20, 24, 28, 32, 36].map((index) => [index, 7 + index, `trial ${index} <b>failed</b>`]),
  );
  // The runner's own object for the running test.
  expect(seen.tests.every((sentFor) => sentFor === task)).toBe(true);
});
