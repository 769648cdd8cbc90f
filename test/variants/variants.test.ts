import { generateText, stepCountIs, tool } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel, seededRandom, variants, type MockModelRequest, type MockModelVariant } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";

/** A model that, like a real one, sometimes searches first: which way it goes depends on the run's seed. */
const model = mockModel((request: MockModelRequest, { random }: MockModelVariant) => {
  if (request.toolResults.length === 0) return { toolCalls: [{ name: random() < 0.5 ? "search" : "lookup", input: { id: "A17" } }] };
  if (request.toolResults.length === 1 && request.toolResults[0]?.name === "search")
    return { toolCalls: [{ name: "lookup", input: { id: "A17" } }] };
  return "Order A17 is delivered.";
});

const tools = {
  search: tool({ inputSchema: z.object({ id: z.string() }), execute: async () => ({ hits: ["A17"] }) }),
  lookup: tool({ inputSchema: z.object({ id: z.string() }), execute: async () => ({ status: "delivered" }) }),
};

const run = ({ seed }: { seed: number }) =>
  createSession({
    seed,
    tools,
    agent: async (message) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(4) })).text,
  }).send("Where is A17?");

describe("variants: one eval, N seeds", () => {
  test("the seed reaches the mock model; the report lists the distinct paths; the same seeds give the same runs", async () => {
    const first = await variants(12, { seed: 1 }, run);
    expect(first.runs.map((variant) => variant.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(first.allPassed).toBe(true);
    expect(first.paths.map((entry) => entry.path).sort()).toEqual(["lookup", "search → lookup"]);
    expect(first.paths.reduce((sum, entry) => sum + entry.count, 0)).toBe(12);
    const again = await variants(12, { seed: 1 }, run);
    expect(again.runs.map((variant) => variant.path)).toEqual(first.runs.map((variant) => variant.path));
  });

  test("at least K of N: a variant whose turn failed does not pass", async () => {
    const report = await variants(6, { seed: 10 }, async (variant) => {
      const turn = await run(variant);
      if (turn.toolCalls[0]?.tool !== "search") return turn;
      return createSession({ agent: () => Promise.reject(new Error("search path is broken")) }).send("x");
    });
    const searched = report.runs.filter((variant) => variant.turn.status === "failed").length;
    expect(report.passed).toBe(6 - searched);
    expect(report.allPassed).toBe(searched === 0);
  });

  test("seededRandom gives the same numbers for the same seed", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect([c(), c(), c()]).not.toEqual(first);
    expect(first.every((n) => n >= 0 && n < 1)).toBe(true);
  });
});

describe("variants: the seed draws the HTTP mocks' latency", () => {
  let server: LlmServer;
  beforeAll(() => {
    server = startLlmServer();
  });
  afterAll(() => server.close());

  /** Two services answer in parallel; which answers first depends on the latencies the seed draws. */
  const race = ({ seed }: { seed: number }) => {
    const fetchBoth = async () => {
      const order: string[] = [];
      await Promise.all(["a", "b"].map(async (name) => (await fetch(`https://${name}.svc.test/status`), order.push(name))));
      return order.join(" then ");
    };
    const session = createSession({
      seed,
      tools: { fetchBoth },
      http: [{ id: "services", url: "https://:name.svc.test/status", outcome: { json: { ok: true }, delayMs: { min: 0, max: 200 } } }],
      agent: async () => fetchBoth(),
    });
    return session.send("which is faster?");
  };

  test("the same seeds give the same latencies; other seeds, others", async () => {
    const first = await variants(6, { seed: 1 }, race);
    const orders = first.runs.map((variant) => variant.turn.text);
    expect(new Set(orders)).toEqual(new Set(["a then b", "b then a"]));
    const again = await variants(6, { seed: 1 }, race);
    // The same drawn latencies in both runs, as the trace records them (measured durations vary under load).
    const drawn = (run: typeof first) =>
      run.runs.map((variant) => variant.turn.httpCalls.map((call) => (call.answeredBy?.kind === "stub" ? call.answeredBy.delayMs : -1)));
    expect(drawn(again)).toEqual(drawn(first));
    expect(
      drawn(first)
        .flat()
        .every((ms) => ms !== undefined && ms >= 0 && ms <= 200),
    ).toBe(true);
    // Which answers first follows the drawn latencies: only clear races (the machine decides close ones under load).
    const gaps = drawn(first).map(([a = 0, b = 0]) => (a ?? 0) - (b ?? 0));
    gaps.forEach((gap, i) => {
      if (Math.abs(gap) > 60) expect(again.runs[i]?.turn.text).toBe(gap < 0 ? "a then b" : "b then a");
    });
    // Not vacuous: seed 1 draws clear races, and other seeds other latencies.
    expect(Math.max(...gaps.map(Math.abs))).toBeGreaterThan(60);
    const other = await variants(6, { seed: 2 }, race);
    expect(drawn(other)).not.toEqual(drawn(first));
  });

  test("a latency range is checked like any mock field", () => {
    const bad = { id: "slow", url: "/x", outcome: { delayMs: { min: 50, max: 10 } } } as const;
    expect(() => createSession({ tools: {}, agent: () => "", http: [bad] })).toThrow(
      /`delayMs` must be a number of milliseconds from 0 to 60000, or a range \{ min, max \} within it/,
    );
  });
});
