import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type Prices, trials, usePrices } from "tooltrace";
import { tooltrace } from "tooltrace/vitest";
import { finishTest } from "../../src/lifecycle/finish-test.js";
import { runInScope, TestScope } from "../../src/lifecycle/scope.js";
import { reportData, type ReportTest } from "../../src/report/report-data.js";
import { type SlowProvider, startSlowProvider } from "../fixtures/slow-provider.js";

// An OpenAI-compatible provider on loopback, in a process of its own: every answer says it used 10 input and
// 5 output tokens, so what each call costs is known exactly.
let provider: SlowProvider;
beforeAll(async () => {
  provider = await startSlowProvider(0);
});
afterAll(() => provider.stop());

/** An agent that asks `model` through the real OpenAI SDK, once per turn (twice when told `twice`). */
const agentOf = (model: string) => async (message: string) => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const ask = async () => (await client.chat.completions.create({ model, messages: [{ role: "user", content: message }] })).choices;
  const first = await ask();
  if (message.includes("twice")) await ask();
  return first[0]?.message.content ?? "";
};

const live = (model: string, prices?: Prices) =>
  createSession({ agent: agentOf(model), upstream: provider.url, ...(prices ? { prices } : {}) });

// gpt-4o-mini's shipped price: $0.15 per million input tokens, $0.60 per million output tokens.
const MINI_CALL = (10 * 0.15 + 5 * 0.6) / 1_000_000;

describe("what a run costs: tokens times the model's price", () => {
  test("each call to a real model has its cost, the turn their sum, in the trace and its JSON", async () => {
    const turn = await live("gpt-4o-mini").send("twice, please");
    expect(turn.modelCalls.map((call) => call.answeredBy?.kind)).toEqual(["real", "real"]);
    expect(turn.modelCalls[0]?.costUsd).toBeCloseTo(MINI_CALL, 15);
    expect(turn.modelCalls[1]?.costUsd).toBeCloseTo(MINI_CALL, 15);
    expect(turn.costUsd).toBeCloseTo(2 * MINI_CALL, 15);
    expect(turn.unpricedCalls).toBeUndefined();
  });

  test("a dated model id takes its undated price", async () => {
    const turn = await live("gpt-4o-mini-2024-07-18").send("hi");
    expect(turn.modelCalls[0]?.costUsd).toBeCloseTo(MINI_CALL, 15);
  });

  test("a model without a price has no cost (not 0), and the turn counts the call", async () => {
    const turn = await live("acme-private-7b").send("twice, please");
    expect(turn.modelCalls.map((call) => call.costUsd)).toEqual([undefined, undefined]);
    expect(turn.costUsd).toBeUndefined();
    expect(turn.unpricedCalls).toBe(2);
  });

  test("a session's prices override the shipped ones and price a model the table lacks", async () => {
    const prices = { "gpt-4o-mini": { input: 1000, output: 2000 }, "acme-private-7b": { input: 100, output: 100 } };
    expect((await live("gpt-4o-mini", prices).send("hi")).costUsd).toBeCloseTo(0.02, 12);
    expect((await live("acme-private-7b", prices).send("hi")).costUsd).toBeCloseTo(0.0015, 12);
  });

  test("the plugin's prices (usePrices) apply to every later session, under a session's own", async () => {
    usePrices({ "acme-private-7b": { input: 1, output: 1 } });
    try {
      expect((await live("acme-private-7b").send("hi")).costUsd).toBeCloseTo(15 / 1_000_000, 15);
      const own = await live("acme-private-7b", { "acme-private-7b": { input: 2, output: 2 } }).send("hi");
      expect(own.costUsd).toBeCloseTo(30 / 1_000_000, 15);
    } finally {
      usePrices({});
    }
  });

  test("a mock model's calls cost nothing and are not counted as unpriced", async () => {
    const turn = await createSession({ agent: agentOf("gpt-4o-mini"), llm: "Mocked" }).send("hi");
    expect(turn.modelCalls[0]?.answeredBy?.kind).toBe("mock-model");
    expect(turn.modelCalls[0]?.costUsd).toBeUndefined();
    expect(turn.costUsd).toBeUndefined();
    expect(turn.unpricedCalls).toBeUndefined();
  });

  test("the test's meta sums its sessions' cost and unpriced calls; the run's JSON sums its tests'", async () => {
    const scope = new TestScope("priced test", undefined, undefined);
    await runInScope(scope, async () => {
      await live("gpt-4o-mini").send("twice, please");
      await live("acme-private-7b").send("hi");
    });
    const meta = finishTest(scope, "ignore").meta();
    expect(meta.sessions[0]?.turns[0]?.costUsd).toBeCloseTo(2 * MINI_CALL, 15);
    expect(meta.sessions[0]?.turns[0]?.modelCalls[0]?.costUsd).toBeCloseTo(MINI_CALL, 15);
    expect(meta.sessions[1]?.turns[0]?.unpricedCalls).toBe(1);
    expect(meta.cost?.costUsd).toBeCloseTo(2 * MINI_CALL, 15);
    expect(meta.cost?.unpricedCalls).toBe(1);
    const test = (id: string): ReportTest => ({ id, file: "a.test.ts", fullName: id, state: "passed", errors: [], meta });
    const run = reportData([test("one"), test("two")]);
    expect(run.cost?.costUsd).toBeCloseTo(4 * MINI_CALL, 15);
    expect(run.cost?.unpricedCalls).toBe(2);
  });

  test("prices are checked: each price a non-negative finite number, the option named", () => {
    expect(() => live("gpt-4o-mini", { "gpt-4o-mini": { input: -1, output: 1 } })).toThrow(
      /createSession\(\{ prices \}\): "gpt-4o-mini"\.input must be a non-negative finite number/,
    );
    expect(() => usePrices({ x: { input: 1, output: Number.NaN } })).toThrow(/tooltrace\(\{ prices \}\): "x"\.output/);
    expect(() => tooltrace({ prices: { x: { input: 1, output: Number.POSITIVE_INFINITY } } })).toThrow(
      /tooltrace\(\{ prices \}\): "x"\.output/,
    );
  });
});

describe("a budget for trials", () => {
  // $0.02 a trial: 10 input tokens at $1000 and 5 output tokens at $2000 per million.
  const prices = { "gpt-4o-mini": { input: 1000, output: 2000 } };
  const ask = async ({ index }: { index: number }) => {
    const turn = await live("gpt-4o-mini", prices).send(`trial ${index}`);
    expect(turn.text).toBe(`answer to trial ${index}`);
  };

  test("once the trials so far reach the budget no new trial starts; the report and its summary say so", async () => {
    await provider.reset();
    const report = await trials(20, { seed: 1, budgetUsd: 0.05, minPassRate: 1, print: false }, ask);
    expect((await provider.stats()).answered).toBe(3);
    expect(report).toMatchObject({ count: 20, ran: 3, passed: 3, passRate: 1, ok: true, budgetUsd: 0.05, stoppedByBudget: true });
    expect(report.costUsd).toBeCloseTo(0.06, 12);
    expect(report.runs.map((run) => run.costUsd)).toEqual([0.02, 0.02, 0.02].map((usd) => expect.closeTo(usd, 12)));
    expect(report.summary()).toContain("budget $0.05 reached after 3 of 20 trials");
    expect(report.summary()).toContain("cost $0.06");
  });

  test("at concurrency 4 the trials already running finish; none starts after the budget is reached", async () => {
    await provider.reset();
    const report = await trials(20, { seed: 1, budgetUsd: 0.01, concurrency: 4, print: false }, ask);
    expect(report.ran).toBe(4);
    expect((await provider.stats()).answered).toBe(4);
    expect(report.stoppedByBudget).toBe(true);
  });

  test("under the budget every trial runs and nothing says it stopped", async () => {
    const report = await trials(3, { seed: 1, budgetUsd: 10, print: false }, ask);
    expect(report.ran).toBe(3);
    expect(report.stoppedByBudget).toBeUndefined();
    expect(report.summary()).not.toContain("reached after");
  });

  test("budgetUsd is checked", async () => {
    await expect(trials(2, { budgetUsd: -1 }, ask)).rejects.toThrow(/trials\(count, \{ budgetUsd \}\): a non-negative finite number/);
  });
});
