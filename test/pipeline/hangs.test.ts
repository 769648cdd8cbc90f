import { generateText } from "ai";
import { describe, expect, test } from "vitest";
import { createSession, mockModel } from "tooltrace";

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
