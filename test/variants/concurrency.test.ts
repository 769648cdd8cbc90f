import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { createSession, trials, variants } from "tooltrace";
import { tooltrace } from "tooltrace/vitest";
import { runFlags } from "../../src/base/run-flags.js";
import { currentTestScope } from "../../src/lifecycle/scope.js";

/** Counts how many callers are inside `around` at once. */
function inFlight() {
  let now = 0;
  const counted = { max: 0 };
  const around = async <T>(fn: () => Promise<T>): Promise<T> => {
    now += 1;
    counted.max = Math.max(counted.max, now);
    try {
      return await fn();
    } finally {
      now -= 1;
    }
  };
  return Object.assign(counted, { around });
}

describe("trials side by side keep to their own sessions", () => {
  test("agents that interleave over shared tools: each trial's trace holds only its own calls", async () => {
    // One tools object for every trial, as a module's would be: each session patches the same functions, and
    // the async context says whose turn a call belongs to.
    const tools = { lookup: async (input: { trial: number; step: number }) => ({ ...input, found: true }) };
    const flight = inFlight();
    const report = await trials(12, { seed: 1, concurrency: 6, minPassRate: 1, print: false }, ({ index, random }) =>
      flight.around(async () => {
        const agent = async () => {
          for (let step = 0; step < 3; step++) {
            await sleep(Math.floor(random() * 25));
            await tools.lookup({ trial: index, step });
          }
          return `trial ${index} done`;
        };
        const turn = await createSession({ agent, tools }).send(`trial ${index}`);
        expect(turn.toolCalls.map((call) => call.input)).toEqual([0, 1, 2].map((step) => ({ trial: index, step })));
      }),
    );
    expect(flight.max).toBe(6);
    expect(report.passed).toBe(12);
    for (const run of report.runs) {
      expect(run.turns.map((turn) => turn.text)).toEqual([`trial ${run.index} done`]);
      expect(run.turns[0]?.toolCalls.map((call) => call.input)).toEqual([0, 1, 2].map((step) => ({ trial: run.index, step })));
      expect(run.path).toEqual(["lookup", "lookup", "lookup"]);
    }
  });

  test("the report is in trial order when the last trial finishes first; failures stay with their trial", async () => {
    const finished: number[] = [];
    const report = await trials(6, { seed: 10, concurrency: 6, print: false }, async ({ index }) => {
      await sleep((6 - index) * 15);
      finished.push(index);
      if (index % 2 === 1) throw new Error(`trial ${index} failed`);
    });
    expect(finished).toEqual([5, 4, 3, 2, 1, 0]);
    expect(report.runs.map((run) => [run.index, run.seed, run.passed])).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i, 10 + i, i % 2 === 0]));
    expect(report.runs.map((run) => run.reason)).toEqual([
      undefined,
      "trial 1 failed",
      undefined,
      "trial 3 failed",
      undefined,
      "trial 5 failed",
    ]);
    const lines = report
      .summary()
      .split("\n")
      .filter((line) => line.startsWith("    · #"));
    expect(lines.map((line) => line.replace(/ \d+ms /, " _ms "))).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `    · #${i} branch=b${i} 0 tokens _ms ${i % 2 === 0 ? "✓" : `✗ trial ${i} failed`}`),
    );
  });

  test("the trials' sessions join the test's in trial order, for task.meta and the viewer", async () => {
    await trials(4, { seed: 1, concurrency: 4, print: false }, async ({ index }) => {
      await sleep((4 - index) * 15);
      await createSession({ name: `session of trial ${index + 1}`, agent: () => "ok" }).send("go");
    });
    // Closing the test's scope here hands back what the test's task.meta would list (and leaves it nothing to check).
    expect(
      currentTestScope()
        ?.closeAll()
        .map((report) => report.name),
    ).toEqual([1, 2, 3, 4].map((n) => `trial ${n} (seed ${n}): session of trial ${n}`));
  });

  test("variants run side by side too, reported in order; one that throws stops the rest from starting", async () => {
    const flight = inFlight();
    const report = await variants(8, { seed: 1, concurrency: 4 }, ({ index }) =>
      flight.around(async () => {
        await sleep((8 - index) * 5);
        return createSession({ agent: () => `variant ${index}` }).send("go");
      }),
    );
    expect(flight.max).toBe(4);
    expect(report.runs.map((run) => [run.seed, run.turn.text])).toEqual([...Array(8).keys()].map((i) => [i + 1, `variant ${i}`]));
    const started: number[] = [];
    const ended: number[] = [];
    await expect(
      variants(8, { concurrency: 2 }, async ({ index }) => {
        started.push(index);
        if (index === 1) throw new Error("variant 1 broke");
        await sleep(30);
        ended.push(index);
        return createSession({ agent: () => "ok" }).send("go");
      }),
    ).rejects.toThrow("variant 1 broke");
    // The one running beside it ended before variants() threw; none started after.
    expect(started).toEqual([0, 1]);
    expect(ended).toEqual([0]);
  });

  test("the plugin's trials.concurrency is the default; a call's own wins", async () => {
    const flight = inFlight();
    const slow = () => flight.around(() => sleep(20));
    runFlags.trialsConcurrency = 3;
    try {
      await trials(9, { print: false }, slow);
      expect(flight.max).toBe(3);
      flight.max = 0;
      await trials(4, { concurrency: 1, print: false }, slow);
      expect(flight.max).toBe(1);
      flight.max = 0;
      await variants(6, {}, () => flight.around(async () => (await sleep(20), createSession({ agent: () => "" }).send("go"))));
      expect(flight.max).toBe(3);
    } finally {
      runFlags.trialsConcurrency = undefined;
    }
    const config = tooltrace({ trials: { concurrency: 4 } }).config.handler({});
    expect(config.test.provide.tooltrace.trials).toEqual({ concurrency: 4 });
  });

  test("a concurrency that is not a positive integer is refused, naming the option", async () => {
    for (const bad of [0, -2, 1.5, Number.NaN, "8" as unknown as number]) {
      await expect(trials(2, { concurrency: bad }, () => undefined)).rejects.toThrow(
        /trials\(count, \{ concurrency \}\): how many trials run at once, a positive integer; got .*\n.*write e\.g\. 8/,
      );
      await expect(variants(2, { concurrency: bad }, () => createSession({ agent: () => "" }).send("go"))).rejects.toThrow(
        /variants\(count, \{ concurrency \}\): how many trials run at once, a positive integer/,
      );
    }
    expect(() => tooltrace({ trials: { concurrency: 0 } })).toThrow(
      /tooltrace\(\{ trials: \{ concurrency \} \}\): how many trials run at once, a positive integer; got 0/,
    );
  });
});
