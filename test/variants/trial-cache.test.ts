import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession, trials } from "tooltrace";
import { runInScope, TestScope } from "../../src/lifecycle/scope.js";
import { type SlowProvider, startSlowProvider } from "../fixtures/slow-provider.js";

// The real model: an OpenAI-compatible provider on loopback, in a process of its own, counting what it answers.
let provider: SlowProvider;
beforeAll(async () => {
  provider = await startSlowProvider(0);
});
afterAll(() => provider.stop());

const agent = async (message: string) => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const answer = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: message }] });
  return answer.choices[0]?.message.content ?? "";
};

/** `trials()` in a test whose file is in `folder`, each trial asking the real model once; what the provider answered. */
async function run(folder: string, count: number, options: Parameters<typeof trials>[1], ask = "refund") {
  await provider.reset();
  const scope = new TestScope("refunds", join(folder, "refunds.eval.ts"), undefined);
  const report = await runInScope(scope, () =>
    trials(count, { print: false, ...options }, async ({ seed }) => {
      const turn = await createSession({ seed, agent, upstream: provider.url }).send(`${ask}, trial ${seed}`);
      expect(turn.text).toBe(`answer to ${ask}, trial ${seed}`);
    }),
  );
  return { passed: report.passed, answered: (await provider.stats()).answered };
}

test("trials with a cassette: recorded when new, replayed when recorded, by seed; a rerun pays for the new trials only", async () => {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-trial-cache-"));
  writeFileSync(join(folder, "refunds.eval.ts"), "");
  expect(await run(folder, 3, { seed: 1, cassette: true })).toEqual({ passed: 3, answered: 3 });
  const cassettes = join(folder, "__cassettes__", "refunds.eval.ts");
  expect(readdirSync(cassettes).sort()).toEqual([1, 2, 3].map((seed) => `seed-${seed}-refunds.session-1.json`));
  // The same trials again: every exchange from its cassette, nothing reaches the provider.
  expect(await run(folder, 3, { seed: 1, cassette: true })).toEqual({ passed: 3, answered: 0 });
  // Two more trials: only they are paid for.
  expect(await run(folder, 5, { seed: 1, cassette: true })).toEqual({ passed: 5, answered: 2 });
  // Other seeds are other trials: recorded anew.
  expect(await run(folder, 2, { seed: 10, cassette: true })).toEqual({ passed: 2, answered: 2 });
  // The agent now asks something else: those trials are recorded anew (not refused, not replayed stale), once.
  expect(await run(folder, 2, { seed: 1, cassette: true }, "cancel")).toEqual({ passed: 2, answered: 2 });
  expect(await run(folder, 2, { seed: 1, cassette: true }, "cancel")).toEqual({ passed: 2, answered: 0 });
  // Without the option nothing is cached: every trial asks the provider.
  expect(await run(folder, 2, { seed: 1 })).toEqual({ passed: 2, answered: 2 });
  expect(existsSync(join(cassettes, "trial-1-refunds.session-1.json"))).toBe(false);
});

test("a cassette path for every trial is refused: each trial has a file of its own", async () => {
  const options = { cassette: { path: "one.json" } } as unknown as Parameters<typeof trials>[1];
  await expect(trials(1, options, async () => undefined)).rejects.toThrow(
    "trials(count, { cassette }): true, or cassette options without `path` (each trial has a file of its own, by its seed).",
  );
});
