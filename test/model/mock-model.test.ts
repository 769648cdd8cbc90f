import { generateText, stepCountIs, streamText, tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel, TooltraceError, type MockModelRequest } from "tooltrace";

const tools = {
  list_tasks: tool({
    description: "List tasks.",
    inputSchema: z.object({ status: z.string().optional() }),
    execute: async () => ({ tasks: ["a"] }),
  }),
  fail: tool({
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error("it broke");
    },
  }),
};

describe("mockModel()", () => {
  test("answers Mock response by default, a static string, or a responder's reply", async () => {
    expect((await generateText({ model: mockModel(), prompt: "hi" })).text).toBe("Mock response");
    expect((await generateText({ model: mockModel("Hello"), prompt: "hi" })).text).toBe("Hello");
    expect((await generateText({ model: mockModel(({ lastUserMessage }) => `Echo: ${lastUserMessage}`), prompt: "ping" })).text).toBe(
      "Echo: ping",
    );
  });

  test("sets the identity the AI SDK sees", async () => {
    const model = mockModel({ modelId: "gpt-test", provider: "acme", respond: "ok" });
    expect([model.modelId, model.provider, model.specificationVersion]).toEqual(["gpt-test", "acme", "v3"]);
    const result = await generateText({ model, prompt: "hi" });
    expect(result.response.modelId).toBe("gpt-test");
  });

  test("gives the responder the request view: messages, user messages, tools, tool results with isError", async () => {
    const seen: MockModelRequest[] = [];
    const model = mockModel((request) => {
      seen.push(request);
      return seen.length === 1 ? { toolCalls: [{ name: "list_tasks", input: { status: "open" } }, { name: "fail" }] } : "done";
    });
    await generateText({
      model,
      tools,
      system: "Be brief.",
      messages: [
        { role: "user", content: "first" },
        { role: "assistant", content: "ok" },
        { role: "user", content: "second" },
      ],
      stopWhen: stepCountIs(3),
    });
    const [first, second] = seen;
    expect(first?.messages).toEqual([
      { role: "system", text: "Be brief." },
      { role: "user", text: "first" },
      { role: "assistant", text: "ok" },
      { role: "user", text: "second" },
    ]);
    expect(first).toMatchObject({ userMessages: ["first", "second"], lastUserMessage: "second", userMessageCount: 2, toolResults: [] });
    expect(first?.tools.map((t) => t.name)).toEqual(["list_tasks", "fail"]);
    expect(first?.tools[0]).toMatchObject({
      description: "List tasks.",
      inputSchema: { type: "object", properties: { status: { type: "string" } } },
    });
    expect(second?.toolResults).toEqual([
      { id: "call_1", name: "list_tasks", output: { tasks: ["a"] }, isError: false },
      // ai@7 sends a tool's error to the model as "Name: message".
      { id: "call_2", name: "fail", output: expect.stringMatching(/^(Error: )?it broke$/), isError: true },
    ]);
    expect(second?.messages.at(-2)).toMatchObject({
      role: "assistant",
      toolCalls: [
        { id: "call_1", name: "list_tasks", input: { status: "open" } },
        { id: "call_2", name: "fail", input: {} },
      ],
    });
  });

  test("lastUserMessage is null before the first user message", async () => {
    let last: string | null | undefined;
    await generateText({
      model: mockModel(({ lastUserMessage }) => ((last = lastUserMessage), "x")),
      system: "only a system prompt",
      messages: [{ role: "assistant", content: "hello" }],
    });
    expect(last).toBeNull();
  });

  test("a script replies once per call and says which call ran past the end", async () => {
    const model = mockModel(["one", { text: "two" }]);
    expect((await generateText({ model, prompt: "a" })).text).toBe("one");
    expect((await generateText({ model, prompt: "b" })).text).toBe("two");
    const error = await generateText({ model, prompt: "the third question" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooltraceError);
    expect((error as Error).message).toBe(
      '[tooltrace] mock model call 3: the script has only 2 replies. Last user message: "the third question". Add a reply, or end the script with a responder function.',
    );
  });

  test("a reply with neither text nor tool calls is an error; empty text is allowed", async () => {
    await expect(generateText({ model: mockModel(() => ({})), prompt: "x" })).rejects.toThrow(/neither text nor tool calls/);
    expect((await generateText({ model: mockModel({ respond: () => ({ text: "" }) }), prompt: "x" })).text).toBe("");
  });

  test("a tool call for a tool the agent did not offer fails, naming both", async () => {
    const model = mockModel(() => ({ toolCalls: [{ name: "delete_all" }] }));
    await expect(generateText({ model, tools, prompt: "x" })).rejects.toThrow(
      'the responder called tool "delete_all", but the agent offered list_tasks, fail',
    );
  });

  test("ids and usage are derived the same on every run", async () => {
    const run = async () => {
      const model = mockModel([{ toolCalls: [{ name: "list_tasks" }] }, "done"]);
      const result = await generateText({ model, tools, prompt: "What tasks do I have?", stopWhen: stepCountIs(3) });
      return { ids: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolCallId)), usage: result.totalUsage };
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(a.ids).toEqual(["call_1"]);
    // "What tasks do I have?" is 21 characters: ceil(21/4) = 6 ... plus the tool's schema and description.
    expect(a.usage.inputTokens).toBeGreaterThan(6);
  });

  test("a reply object works as the whole input or as `respond`", async () => {
    expect(
      (await generateText({ model: mockModel({ text: "direct", usage: { inputTokens: 7, outputTokens: 3 } }), prompt: "p" })).usage,
    ).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect((await generateText({ model: mockModel({ modelId: "m", respond: { text: "nested" } }), prompt: "p" })).text).toBe("nested");
  });

  test("usage: about one token per four characters, at least one, unless the reply says", async () => {
    const estimated = await generateText({ model: mockModel("12345678"), prompt: "abcdefghijkl" });
    expect(estimated.usage).toMatchObject({ inputTokens: 3, outputTokens: 2, totalTokens: 5 });
    const tiny = await generateText({ model: mockModel({ respond: () => ({ text: "" }) }), prompt: "a" });
    expect(tiny.usage).toMatchObject({ inputTokens: 1, outputTokens: 1 });
    const given = await generateText({
      model: mockModel(() => ({ text: "x", usage: { inputTokens: 70, outputTokens: 30 } })),
      prompt: "p",
    });
    expect(given.usage).toMatchObject({ inputTokens: 70, outputTokens: 30, totalTokens: 100 });
  });

  test("streams text and tool-call parts and a finish part like a provider", async () => {
    const model = mockModel([
      {
        text: "Checking your tasks now.",
        toolCalls: [{ name: "list_tasks", input: { status: "open" } }],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      "You have a.",
    ]);
    const result = streamText({ model, tools, prompt: "tasks?", stopWhen: stepCountIs(3) });
    const parts: string[] = [];
    const deltas: string[] = [];
    for await (const part of result.fullStream) {
      parts.push(part.type);
      if (part.type === "text-delta") deltas.push(part.text);
    }
    expect(deltas.slice(0, 4)).toEqual(["Checking ", "your ", "tasks ", "now."]);
    expect(parts).toEqual(
      expect.arrayContaining([
        "start-step",
        "text-start",
        "text-delta",
        "text-end",
        "tool-input-start",
        "tool-input-delta",
        "tool-call",
        "tool-result",
        "finish-step",
        "finish",
      ]),
    );
    const steps = await result.steps;
    expect(steps[0]?.finishReason).toBe("tool-calls");
    expect(steps[0]?.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(steps[1]?.finishReason).toBe("stop");
    expect(await result.text).toBe("You have a.");
  });

  test("a responder that fails inside a session fails the turn's checks even if the agent swallows the error", async () => {
    const model = mockModel(["only one reply"]);
    const session = createSession({
      agent: async (message) => {
        await generateText({ model, prompt: message });
        return generateText({ model, prompt: message }).then(
          (result) => result.text,
          () => "swallowed",
        );
      },
    });
    const turn = await session.send("twice");
    expect(turn.text).toBe("swallowed");
    expect(turn).not.toSucceed();
    expect(turn.modelCalls[1]?.error?.message).toContain("the script has only 1 reply");
    expect(session.takeViolations()).toEqual([
      expect.stringContaining(
        "the mock model failed (tooltrace, model mock-model): [tooltrace] mock model call 2: the script has only 1 reply",
      ),
    ]);
  });

  test("records every call on the session's turn, with a summed usage", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "list_tasks" }], usage: { inputTokens: 10, outputTokens: 2 } },
      { text: "done", usage: { inputTokens: 20, outputTokens: 3 } },
    ]);
    const session = createSession({
      agent: async (message) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(3) })).text,
      tools,
    });
    const turn = await session.send("go");
    expect(
      turn.modelCalls.map((call) => [call.provider, call.model, call.streamed, call.reply.text, call.reply.toolCalls.map((c) => c.name)]),
    ).toEqual([
      ["tooltrace", "mock-model", false, "", ["list_tasks"]],
      ["tooltrace", "mock-model", false, "done", []],
    ]);
    expect(turn.usage).toEqual({ inputTokens: 30, outputTokens: 5, totalTokens: 35 });
    expect(turn.assistantTexts).toEqual(["done"]);
  });
});
