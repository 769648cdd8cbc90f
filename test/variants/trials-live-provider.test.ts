import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type Trial, trials } from "tooltrace";
import { type SlowProvider, startSlowProvider } from "../fixtures/slow-provider.js";

// A provider on loopback that answers after 300 ms, in a process of its own, counting the requests in flight.
let provider: SlowProvider;
beforeAll(async () => {
  provider = await startSlowProvider(300);
});
afterAll(() => provider.stop());

/** One trial: the agent asks the real model (the OpenAI SDK, through the session's `upstream`) and checks its answer. */
const ask = async ({ index, seed }: Trial) => {
  const agent = async (message: string) => {
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: message }] });
    return reply.choices[0]?.message.content ?? "";
  };
  const turn = await createSession({ seed, agent, upstream: provider.url }).send(`trial ${index}`);
  expect(turn.modelCalls[0]?.answeredBy?.kind).toBe("real");
  expect(turn.text).toBe(`answer to trial ${index}`);
};

describe("trials against a live model run side by side, up to their concurrency", () => {
  test("16 trials at concurrency 8: the provider sees more than one request at once, never more than 8", async () => {
    await provider.reset();
    const report = await trials(16, { seed: 1, concurrency: 8, minPassRate: 1, print: false }, ask);
    const { max, answered } = await provider.stats();
    expect(answered).toBe(16);
    expect(max).toBeGreaterThan(1);
    expect(max).toBeLessThanOrEqual(8);
    expect(report.passed).toBe(16);
    // In trial order, whatever order they finished in, each with its own seed and its own model's answer.
    expect(report.runs.map((run) => run.index)).toEqual([...Array(16).keys()]);
    expect(report.runs.map((run) => run.seed)).toEqual([...Array(16).keys()].map((index) => index + 1));
    expect(report.runs.map((run) => run.turns.map((turn) => turn.text))).toEqual(
      [...Array(16).keys()].map((index) => [`answer to trial ${index}`]),
    );
  });

  test("at concurrency 1 the provider never sees two requests at once", async () => {
    await provider.reset();
    const report = await trials(4, { seed: 1, concurrency: 1, minPassRate: 1, print: false }, ask);
    expect(await provider.stats()).toEqual({ max: 1, answered: 4, inFlight: 0 });
    expect(report.runs.map((run) => run.turns[0]?.text)).toEqual([0, 1, 2, 3].map((index) => `answer to trial ${index}`));
  });
});
