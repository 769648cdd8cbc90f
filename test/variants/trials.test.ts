import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, passAtK, passHatK, trials, type MockModelInput } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";
import { flightAgent, flightModel, flightTools } from "../fixtures/flight-agent.js";

const stubs = [{ id: "paris", tool: "search_flights", outcome: { response: [{ id: "FL123", price: 299 }] } }];

/** One trial: a traveller who sometimes hesitates; the eval wants a booking. */
const booking = async ({ seed }: { seed: number }) => {
  const { tools } = flightTools();
  const turn = await createSession({
    seed,
    agent: flightAgent(tools, flightModel(0.4)),
    tools,
    stubs: [...stubs, { id: "book", tool: "book_flight", outcome: { response: { ok: true } } }],
  }).send("Book a flight to Paris.");
  expect(turn).toHaveCalledTool("book_flight");
};

describe("trials: one eval N times, with a pass rate", () => {
  test("each trial is seeded and reproducible; the report has the pass rate, pass^k and pass@k", async () => {
    const first = await trials(10, { seed: 1, k: [1, 3, 10], print: false }, booking);
    expect(first.count).toBe(10);
    expect(first.passed).toBeGreaterThan(0);
    expect(first.passed).toBeLessThan(10);
    expect(first.passRate).toBe(first.passed / 10);
    expect(first.passHatK["1"]).toBeCloseTo(first.passRate);
    expect(first.passHatK["3"]).toBeCloseTo(passHatK(10, first.passed, 3));
    expect(first.passHatK["10"]).toBe(0);
    expect(first.passAtK["3"]).toBeCloseTo(passAtK(10, first.passed, 3));
    expect(first.runs.map((run) => run.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const failed = first.runs.find((run) => !run.passed);
    expect(failed?.reason).toContain('"book_flight" called at least once');
    expect(failed?.path).toEqual(["search_flights"]);
    const again = await trials(10, { seed: 1, print: false }, booking);
    expect(again.runs.map((run) => run.passed)).toEqual(first.runs.map((run) => run.passed));
    expect(first.summary()).toMatch(/pass rate \d\/10 = \d+%/);
    expect(first.summary()).toMatch(/b\d: step-0:search_flights → step-1:book_flight/);
    expect(first.summary()).toMatch(/#0 branch=b0 \d+ tokens \d+ms (✓|✗ Expected: "book_flight" called at least once)/);
    // Where the trials diverged: after search_flights, some booked and some stopped.
    const booked = first.runs.filter((run) => run.path.length === 2).length;
    expect(first.summary()).toContain(
      [
        "  Where they diverge:",
        `    10 trials · ${first.passed * 10}% passed`,
        `    └ search_flights  10 · ${first.passed * 10}% passed`,
        `      ├ book_flight  ${booked} · 100% passed`,
        `      └ (stopped)  ${10 - booked} · 0% passed`,
      ].join("\n"),
    );
    expect(first.tree).toMatchObject({ count: 10, passed: first.passed });
  });

  test("below minPassRate the test fails with the report; at it, it passes", async () => {
    const { passed } = await trials(10, { seed: 1, print: false }, booking);
    await expect(trials(10, { seed: 1, minPassRate: (passed + 1) / 10 }, booking)).rejects.toThrow(
      new RegExp(`trials: ${passed} of 10 passed \\(${passed * 10}%\\), below minPassRate ${(passed + 1) * 10}%`),
    );
    await expect(trials(10, { seed: 1, minPassRate: passed / 10, print: false }, booking)).resolves.toMatchObject({ ok: true });
  });

  test("failTest: false returns the report below the minimum; a turn left running fails its trial, not the test", async () => {
    const below = await trials(4, { seed: 1, minPassRate: 1, failTest: false, print: false }, booking);
    expect(below.ok).toBe(below.passed === 4);
    const report = await trials(2, { print: false }, async () => {
      const session = createSession({ agent: () => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 300)) });
      void session.send("hi");
    });
    expect(report.passed).toBe(0);
    expect(report.runs[0]?.reason).toBeDefined();
    // This test passes: the running turns counted against their trials.
  });

  test("bad options say what to pass", async () => {
    await expect(trials(0, {}, booking)).rejects.toThrow(/positive integer/);
    await expect(trials(2, { minPassRate: 80 }, booking)).rejects.toThrow(/write 0.8 for 80%/);
  });
});

describe("trials over a replayed prefix: only the later turns reach the live model", () => {
  let wire: LlmServer;
  beforeAll(() => {
    wire = startLlmServer();
  });
  afterAll(() => wire.close());

  test("each trial replays turn 1 from the cassette and sends turn 2 to the live model", async () => {
    const respond: MockModelInput = (request) => `answer to ${request.lastUserMessage}`;
    const llm = createLlmAnswer({ respond });
    let hits = 0;
    const provider = await serveOnLoopback(async (request) => {
      hits += 1;
      return llm.answer(request);
    });
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-trials-")), "two-turns.json");
    const agent = async (message: string, { history }: { history: readonly OpenAI.ChatCompletionMessageParam[] }) => {
      const messages = [...history, { role: "user" as const, content: message }];
      const reply = await new OpenAI({ apiKey: "sk-test", maxRetries: 0 }).chat.completions.create({ model: "gpt-4o-mini", messages });
      const text = reply.choices[0]?.message.content ?? "";
      return { text, messages: [...messages.slice(history.length), { role: "assistant" as const, content: text }] };
    };
    const recorder = createSession({ agent, tools: {}, upstream: provider.url, cassette: { mode: "record", path } });
    await recorder.send("first");
    await recorder.send("second");
    recorder.close();
    expect(hits).toBe(2);

    const report = await trials(4, { seed: 7, minPassRate: 1, print: false }, async ({ seed }) => {
      const session = createSession({ seed, agent, tools: {}, upstream: provider.url, cassette: { replay: { upTo: 1 }, path } });
      const one = await session.send("first");
      const two = await session.send("second");
      expect(one.modelCalls[0]?.answeredBy?.kind).toBe("cassette");
      expect(two.modelCalls[0]?.answeredBy?.kind).toBe("real");
      expect(two.text).toBe("answer to second");
    });
    expect(report.passed).toBe(4);
    expect(hits).toBe(2 + 4);
    await provider.close();
  });

  test("a strict violation counts against its trial, not the test", async () => {
    const report = await trials(6, { seed: 1, minPassRate: 0.1, print: false }, async ({ seed }) => {
      const { tools } = flightTools();
      // book_flight has no rule: in a strict session the trials that book are refused.
      await createSession({ seed, strict: true, agent: flightAgent(tools, flightModel(0.5)), tools, stubs }).send(
        "Book a flight to Paris.",
      );
    });
    const refused = report.runs.filter((run) => !run.passed);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(6);
    expect(refused[0]?.reason).toContain("strict mode: no stub rule matched book_flight");
    expect(report.passed).toBe(6 - refused.length);
  });
});

describe("trials say nothing while all goes well, and something when it matters", () => {
  test("passing trials print nothing; a failed trial prints the table; slow trials say how far they are", async () => {
    const printed: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => printed.push(args.join(" "));
    try {
      await trials(5, { seed: 1 }, () => undefined);
      expect(printed).toEqual([]);
      await trials(3, { seed: 1, minPassRate: 0.5 }, ({ index }) => {
        if (index === 1) throw new Error("the second trial failed");
      });
      expect(printed).toEqual([expect.stringContaining("#1 branch=")]);
      expect(printed[0]).toContain("the second trial failed");
      expect(printed[0]).toContain("pass rate 2/3");
      printed.length = 0;
      await trials(4, { seed: 1, name: "slow ones" }, () => new Promise((resolve) => setTimeout(resolve, 900)));
      expect(printed).toEqual([expect.stringMatching(/^\[tooltrace\] trials of slow ones: 3 of 4 run, 3 passed \(\d s\)$/)]);
    } finally {
      console.log = log;
    }
  }, 20_000);
});
