import OpenAI from "openai";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession, trials } from "tooltrace";
import { finishTest } from "../../src/lifecycle/finish-test.js";
import { runInScope, TestScope } from "../../src/lifecycle/scope.js";
import { type SlowProvider, startSlowProvider } from "../fixtures/slow-provider.js";

// An OpenAI-compatible provider on loopback, in a process of its own: each answer used 10 input, 5 output tokens.
let provider: SlowProvider;
beforeAll(async () => {
  provider = await startSlowProvider(0);
});
afterAll(() => provider.stop());

/** The agent under test, built for a model: it asks that model once through the real OpenAI SDK. */
const agentFor = (model: string) => async (message: string) => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const answer = await client.chat.completions.create({ model, messages: [{ role: "user", content: message }] });
  return answer.choices[0]?.message.content ?? "";
};

// gpt-4o-mini's and gpt-4o's shipped prices for one call.
const MINI = (10 * 0.15 + 5 * 0.6) / 1_000_000;
const GPT4O = (10 * 2.5 + 5 * 10) / 1_000_000;

// An eval that holds a cost ceiling per answer: gpt-4o-mini meets it, gpt-4o does not.
const cheapAnswer = async ({ seed, model }: { seed: number; model: string }) => {
  const turn = await createSession({ seed, agent: agentFor(model), upstream: provider.url }).send(`refund A17 (${seed})`);
  expect(turn.modelCalls[0]?.model).toBe(model);
  expect(turn.costUsd ?? 0).toBeLessThan(0.00005);
};

test("the same eval over two models: each trial gets its model, the report has them side by side", async () => {
  const scope = new TestScope("refunds", undefined, undefined);
  const report = await runInScope(scope, () =>
    trials(3, { seed: 1, models: ["gpt-4o-mini", "gpt-4o"], print: false, failTest: false, minPassRate: 1 }, cheapAnswer),
  );
  expect(report.models.map((row) => [row.model, row.report.passed, row.report.ran])).toEqual([
    ["gpt-4o-mini", 3, 3],
    ["gpt-4o", 0, 3],
  ]);
  expect(report.ok).toBe(false);
  expect(report.models[0]?.report.costUsd).toBeCloseTo(3 * MINI, 12);
  expect(report.models[1]?.report.costUsd).toBeCloseTo(3 * GPT4O, 12);
  // The same seeds for every model: the rows compare the models, not the draws.
  expect(report.models.map((row) => row.report.runs.map((trial) => trial.seed))).toEqual([
    [1, 2, 3],
    [1, 2, 3],
  ]);
  const lines = report.summary().split("\n");
  expect(lines[0]).toBe("▶ refunds: 2 models");
  expect(lines[1]).toMatch(/^ {2}model {8}pass rate \(95% CI\) +cost +median latency$/);
  expect(lines[2]).toMatch(/^ {2}gpt-4o-mini +3\/3 100% \(43\.9%–100%\) +\$0\.0000135 +\d+ ms$/);
  expect(lines[3]).toMatch(/^ {2}gpt-4o +0\/3 0% \(0%–56\.1%\) ✗ +\$0\.000225 +\d+ ms$/);
  // Each model's trials are a trials() run of the test's, named by the model: the viewer, the summary and
  // show --compare list them side by side.
  const meta = finishTest(scope, "ignore").meta();
  expect(meta.trials?.map((run) => [run.name, run.passed, run.count])).toEqual([
    ["refunds [gpt-4o-mini]", 3, 3],
    ["refunds [gpt-4o]", 0, 3],
  ]);
});

test("a model below minPassRate fails the test, naming the model, with the table", async () => {
  const failed = await trials(2, { seed: 1, models: ["gpt-4o-mini", "gpt-4o"], minPassRate: 0.5 }, cheapAnswer).catch(
    (error: Error) => error,
  );
  expect(failed).toBeInstanceOf(Error);
  expect((failed as Error).message).toMatch(/^\[tooltrace\] trials over 2 models: gpt-4o below minPassRate 50%\.\n▶ /);
});

test("a budget is shared: what one model spent, the next cannot", async () => {
  // gpt-4o-mini's 3 trials spend $0.0000135; gpt-4o's first trial spends the rest, then no more start.
  const report = await trials(
    3,
    { seed: 1, models: ["gpt-4o-mini", "gpt-4o"], budgetUsd: 0.00005, print: false },
    async ({ seed, model }) => {
      await createSession({ seed, agent: agentFor(model), upstream: provider.url }).send("hi");
    },
  );
  expect(report.models.map((row) => row.report.ran)).toEqual([3, 1]);
  expect(report.models[1]?.report.stoppedByBudget).toBe(true);
  expect(report.summary()).toContain("(budget: 1 of 3 ran)");
});

test("models are checked: none, an empty id, or one named twice is refused with what to write", async () => {
  const run = async () => undefined;
  await expect(trials(1, { models: [] }, run)).rejects.toThrow(
    'trials(count, { models }): no models.\n  Fix: name each model once: models: ["gpt-4o-mini", "gpt-4o"].',
  );
  await expect(trials(1, { models: ["a", ""] }, run)).rejects.toThrow("models[1] is not a model id");
  await expect(trials(1, { models: ["a", "a"] }, run)).rejects.toThrow("a model twice");
});
