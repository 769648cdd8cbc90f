import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createSession, type ModelCall, type Trial, trials, useProviderLimits } from "tooltrace";
import { tooltrace } from "tooltrace/vitest";
import { finishTest } from "../../src/lifecycle/finish-test.js";
import { runInScope, TestScope } from "../../src/lifecycle/scope.js";
import { reportData } from "../../src/report/report-data.js";
import { retryAfterMs } from "../../src/wire/provider-send.js";
import { type SlowProvider, startRateLimitedProvider } from "../fixtures/slow-provider.js";

// Providers on loopback, each in a process of its own, answering in 300 ms: at most 5 requests at once, and the
// sixth answered with 429 (OpenAI) or 529 (Anthropic) and `Retry-After: 0.2`.
let openai: SlowProvider;
let anthropic: SlowProvider;
beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startRateLimitedProvider(300, 5, 429), startRateLimitedProvider(300, 5, 529)]);
});
afterAll(() => {
  openai.stop();
  anthropic.stop();
});
afterEach(() => useProviderLimits({}));

// The SDKs' own retries are off: whatever is waited out, tooltrace waited.
const viaOpenAi = async (message: string) => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const reply = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: message }] });
  return reply.choices[0]?.message.content ?? "";
};
const viaAnthropic = async (message: string) => {
  const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
  const reply = await client.messages.create({
    model: "claude-sonnet-5-5",
    max_tokens: 100,
    messages: [{ role: "user", content: message }],
  });
  return reply.content.map((part) => (part.type === "text" ? part.text : "")).join("");
};

const viaGemini = async (message: string) => {
  const client = new GoogleGenAI({ apiKey: "AIza-test" });
  const reply = await client.models.generateContent({ model: "gemini-2.5-flash", contents: message });
  return reply.text ?? "";
};

/** Trials of a one-call agent against `provider`; each checks it got the real model's answer. */
const run = (count: number, concurrency: number, provider: SlowProvider, agent: (message: string) => Promise<string>) =>
  trials(count, { seed: 1, concurrency, minPassRate: 1, print: false }, async ({ index, seed }: Trial) => {
    const turn = await createSession({ seed, agent, upstream: provider.url }).send(`trial ${index}`);
    expect(turn.text).toBe(`answer to trial ${index}`);
  });

const callsOf = (report: Awaited<ReturnType<typeof run>>): ModelCall[] =>
  report.runs.flatMap((trial) => trial.turns.flatMap((turn) => turn.modelCalls));

describe("one limit per provider and model: requests wait for a slot instead of being refused", () => {
  test("OpenAI SDK, limit 5, 20 trials at concurrency 10: never more than 5 at once, nothing refused, the waits traced", async () => {
    useProviderLimits({ openai: { maxInFlight: 5 } });
    await openai.reset();
    const report = await run(20, 10, openai, viaOpenAi);
    expect(await openai.stats()).toMatchObject({ max: 5, answered: 20, rejected: 0 });
    expect(report.passed).toBe(20);
    const calls = callsOf(report);
    // One call per trial, each completed by the real model; the ones that queued say how long, as the provider's.
    expect(calls.map((call) => [call.status, call.answeredBy?.kind])).toEqual(Array(20).fill(["completed", "real"]));
    const queued = calls.filter((call) => (call.providerWait?.queuedMs ?? 0) > 0);
    expect(queued.length).toBeGreaterThanOrEqual(10);
    expect(queued.every((call) => call.providerWait?.rateLimited === 0)).toBe(true);
    expect(report.summary()).toMatch(/\d+ calls waited on the provider: queued \d+\.\d s for the provider limit/);
  });

  test("the limit is per model: two models of one provider each get their own 5 (and the provider its 429s)", async () => {
    useProviderLimits({ openai: { maxInFlight: 5 }, "openai/gpt-4o": { maxInFlight: 1 } });
    await openai.reset();
    const agent = (model: string) => async (message: string) => {
      const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
      const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: message }] });
      return reply.choices[0]?.message.content ?? "";
    };
    const turns = await Promise.all(
      ["gpt-4o", "gpt-4o", "gpt-4o", "gpt-4o-mini", "gpt-4o-mini"].map((model, index) =>
        createSession({ agent: agent(model), upstream: openai.url }).send(`call ${index}`),
      ),
    );
    expect(turns.map((turn) => turn.text)).toEqual([0, 1, 2, 3, 4].map((index) => `answer to call ${index}`));
    // The three gpt-4o calls went one at a time: two of them queued for another's 300 ms; the gpt-4o-mini calls
    // did not wait on them.
    const queued = turns.map((turn) => (turn.modelCalls[0]?.providerWait?.queuedMs ?? 0) >= 100);
    expect(queued.slice(0, 3).filter(Boolean)).toHaveLength(2);
    expect(queued.slice(3)).toEqual([false, false]);
  });

  test("Anthropic SDK, limit 5, 15 trials at concurrency 15: never more than 5 at once, nothing refused", async () => {
    useProviderLimits({ anthropic: { maxInFlight: 5 } });
    await anthropic.reset();
    const report = await run(15, 15, anthropic, viaAnthropic);
    expect(await anthropic.stats()).toMatchObject({ max: 5, answered: 15, rejected: 0 });
    expect(report.passed).toBe(15);
  });

  test("Google's SDK, limit 5, 15 trials at concurrency 15: never more than 5 at once, nothing refused", async () => {
    useProviderLimits({ google: { maxInFlight: 5 } });
    await openai.reset();
    const report = await run(15, 15, openai, viaGemini);
    expect(await openai.stats()).toMatchObject({ max: 5, answered: 15, rejected: 0 });
    expect(report.passed).toBe(15);
    // Without the limit its 429s are waited out, counted as the provider's.
    useProviderLimits({});
    await openai.reset();
    const unlimited = await run(10, 10, openai, viaGemini);
    const { rejected } = await openai.stats();
    expect(rejected).toBeGreaterThan(0);
    expect(unlimited.passed).toBe(10);
    expect(callsOf(unlimited).reduce((sum, call) => sum + (call.providerWait?.rateLimited ?? 0), 0)).toBe(rejected);
  });

  test("AI SDK: a limit of 3 on OpenAI's chat holds 9 calls at once to 3; on Anthropic, its 529s are waited out", async () => {
    useProviderLimits({ "openai/gpt-4o-mini": { maxInFlight: 3 } });
    await Promise.all([openai.reset(), anthropic.reset()]);
    const viaAiSdk = async (message: string) =>
      (await generateText({ model: createOpenAI({ apiKey: "k" }).chat("gpt-4o-mini"), prompt: message, maxRetries: 0 })).text;
    const limited = await run(9, 9, openai, viaAiSdk);
    expect(limited.passed).toBe(9);
    expect(await openai.stats()).toMatchObject({ max: 3, answered: 9, rejected: 0 });
    const viaClaude = async (message: string) =>
      (await generateText({ model: createAnthropic({ apiKey: "k" })("claude-sonnet-5-5"), prompt: message, maxRetries: 0 })).text;
    const overloaded = await run(9, 9, anthropic, viaClaude);
    expect(overloaded.passed).toBe(9);
    const { rejected } = await anthropic.stats();
    expect(rejected).toBeGreaterThan(0);
    expect(callsOf(overloaded).reduce((sum, call) => sum + (call.providerWait?.rateLimited ?? 0), 0)).toBe(rejected);
  });

  test("the test's meta and the run's JSON sum the waits", async () => {
    useProviderLimits({ openai: { maxInFlight: 2 } });
    const scope = new TestScope("limited test", undefined, undefined);
    await runInScope(scope, () => run(6, 6, openai, viaOpenAi));
    const meta = finishTest(scope, "ignore").meta();
    const waits = meta.sessions.flatMap((session) => session.turns.flatMap((turn) => turn.modelCalls.map((call) => call.providerWait)));
    // Two at a time: at least four of the six waited for a slot, and the meta counts each that did.
    const waited = waits.filter((wait) => wait !== undefined);
    expect(waited.length).toBeGreaterThanOrEqual(4);
    expect(meta.providerWaits).toEqual({
      calls: waited.length,
      queuedMs: waited.reduce((sum, wait) => sum + wait.queuedMs, 0),
      rateLimited: 0,
      rateLimitedMs: 0,
    });
    const data = reportData([{ id: "t", file: "a.test.ts", fullName: "t", state: "passed", errors: [], meta }]);
    expect(data.providerWaits).toEqual(meta.providerWaits);
  });
});

describe("a 429 or 529 with Retry-After is waited out and sent again, the provider's wait and not the agent's failure", () => {
  test("OpenAI SDK, no limit, 12 trials at concurrency 12: the provider refused some, every trial passed", async () => {
    await openai.reset();
    const report = await run(12, 12, openai, viaOpenAi);
    const { rejected, answered } = await openai.stats();
    expect(answered).toBe(12);
    expect(rejected).toBeGreaterThan(0);
    expect(report.passed).toBe(12);
    const calls = callsOf(report);
    // The refusals are neither calls nor errors of the agent's: each trial has its one completed call, which
    // counts the refusals it waited out.
    expect(calls.map((call) => call.status)).toEqual(Array(12).fill("completed"));
    expect(calls.reduce((sum, call) => sum + (call.providerWait?.rateLimited ?? 0), 0)).toBe(rejected);
    const waited = calls.find((call) => (call.providerWait?.rateLimited ?? 0) > 0);
    expect(waited?.providerWait?.rateLimitedMs).toBe(200 * (waited?.providerWait?.rateLimited ?? 0));
    expect(report.summary()).toContain(`${rejected} rate limit${rejected === 1 ? "" : "s"} waited out`);
  });

  test("Anthropic SDK, no limit: 529 overloaded is waited out the same way", async () => {
    await anthropic.reset();
    const report = await run(10, 10, anthropic, viaAnthropic);
    const { rejected } = await anthropic.stats();
    expect(rejected).toBeGreaterThan(0);
    expect(report.passed).toBe(10);
    expect(callsOf(report).reduce((sum, call) => sum + (call.providerWait?.rateLimited ?? 0), 0)).toBe(rejected);
  });

  test("with retries: 0 (or a wait longer than maxWaitMs) the client gets the provider's 429 as it came", async () => {
    for (const limit of [{ retries: 0 }, { maxWaitMs: 100 }]) {
      useProviderLimits({ openai: limit });
      await openai.reset();
      const turns = await Promise.all(
        Array.from({ length: 8 }, (_, index) => createSession({ agent: viaOpenAi, upstream: openai.url }).send(`call ${index}`)),
      );
      const { rejected } = await openai.stats();
      expect(rejected).toBeGreaterThan(0);
      const failed = turns.filter((turn) => turn.status === "failed");
      expect(failed).toHaveLength(rejected ?? 0);
      expect(failed[0]?.error?.message).toMatch(/429/);
      expect(failed[0]?.modelCalls[0]?.providerWait).toBeUndefined();
    }
  });
});

describe("Retry-After as the providers write it", () => {
  test("seconds, fractions of one, an HTTP date, and OpenAI's retry-after-ms first", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "0.2" }), now)).toBe(200);
    expect(retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "150", "retry-after": "1" }), now)).toBe(150);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe("the option is checked, the field and what to write named", () => {
  test("a provider tooltrace does not know, a limit below 1, a field that is no limit", () => {
    expect(() => useProviderLimits({ openia: { maxInFlight: 5 } })).toThrow(/"openia" names no provider; use "openai"/);
    expect(() => tooltrace({ providers: { openai: { maxInFlight: 0 } } })).toThrow(
      /tooltrace\(\{ providers \}\): "openai"\.maxInFlight must be a whole number of at least 1, got 0/,
    );
    expect(() => tooltrace({ providers: { anthropic: { max: 2 } as never } })).toThrow(/"anthropic"\.max is not a limit; use maxInFlight/);
  });
});
