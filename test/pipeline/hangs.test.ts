import { generateText } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, mockModel } from "tooltrace";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

describe("a turn that times out names what was pending", () => {
  test("a model call that never resolves: the script step and the last user message", async () => {
    const model = mockModel(["first", () => new Promise<string>(() => undefined)]);
    const session = createSession({
      agent: async (message, { signal }) => {
        await generateText({ model, prompt: "warm up", abortSignal: signal });
        return (await generateText({ model, prompt: message, abortSignal: signal })).text;
      },
    });
    const turn = await session.send("Where is my order?", { timeoutMs: 50 });
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toMatch(
      /turn 0 timed out after 50 ms\. Pending: model call to tooltrace mock-model \(script step 2\), last user message "Where is my order\?", pending for \d+ ms\./,
    );
    expect(turn.modelCalls.map((call) => call.status)).toEqual(["completed", "pending"]);
  });

  test("a tool that never resolves: the tool and its input", async () => {
    const tools = { fetch_report: (_input: { id: string }) => new Promise<string>(() => undefined) };
    const session = createSession({ tools, agent: async () => tools.fetch_report({ id: "r-17" }) });
    const turn = await session.send("report", { timeoutMs: 30 });
    expect(turn.error?.message).toMatch(/Pending: tool call fetch_report\(\{"id":"r-17"\}\) \[real tool\], pending for \d+ ms\./);
  });

  test("nothing caught was pending: it says so", async () => {
    const session = createSession({ agent: () => new Promise<string>(() => undefined) });
    const turn = await session.send("hi", { timeoutMs: 10 });
    expect(turn.error?.message).toContain("Nothing tooltrace caught was pending: the agent was busy elsewhere.");
  });

  test("a second send while a turn runs is refused", async () => {
    const session = createSession({ agent: () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 20)) });
    const first = session.send("one");
    await expect(session.send("two")).rejects.toThrow("turn 0 is still running; await each send() before the next one");
    expect((await first).text).toBe("done");
  });
});

describe("calls that arrive after their turn timed out are answered, marked late and reported once", () => {
  const afterTimeout = () => new Promise((resolve) => setTimeout(resolve, 60));

  test("a model call: answered by the mock model, with what answered it in the report", async () => {
    const model = mockModel("late reply");
    const late: { reply?: string } = {};
    const session = createSession({
      agent: async () => {
        await afterTimeout();
        late.reply = (await generateText({ model, prompt: "still there?" })).text;
        return late.reply;
      },
    });
    const turn = await session.send("hi", { timeoutMs: 10 });
    expect(turn.status).toBe("failed");
    await expect.poll(() => late.reply, { timeout: 1000 }).toBe("late reply");
    expect(turn.modelCalls.map((call) => [call.status, call.late])).toEqual([["completed", true]]);
    expect(session.takeViolations()).toEqual([
      "a model call to tooltrace mock-model arrived after turn 0 had ended; answered by mock model. Await everything the agent starts before the turn ends, or cancel it on `signal`.",
    ]);
  });

  test("a tool call in strict mode: refused, not run", async () => {
    let realRuns = 0;
    const tools = { list_tasks: (_input: object) => ((realRuns += 1), { real: true }) };
    const late: { outcome?: string } = {};
    const session = createSession({
      tools,
      strict: true,
      agent: async () => {
        await afterTimeout();
        try {
          tools.list_tasks({ from: "late" });
          late.outcome = "ran";
        } catch (error) {
          late.outcome = (error as Error).message;
        }
        return "done";
      },
    });
    const turn = await session.send("hi", { timeoutMs: 10 });
    await expect.poll(() => late.outcome, { timeout: 1000 }).toMatch(/strict mode: no stub rule matched list_tasks/);
    expect(realRuns).toBe(0);
    expect(turn.toolCalls.map((call) => [call.tool, call.status, call.late])).toEqual([["list_tasks", "rejected", true]]);
    expect(session.takeViolations()).toEqual([
      'list_tasks({"from":"late"}) arrived after turn 0 had ended; refused by strict mode: no rule matched. Await everything the agent starts before the turn ends, or cancel it on `signal`.',
    ]);
  });
});
