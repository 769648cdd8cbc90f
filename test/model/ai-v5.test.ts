import { generateText, stepCountIs, streamText, tool, type LanguageModel } from "ai-v5";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel } from "tooltrace";

// ai@5 speaks language-model specification v2: the same mock model, built for it.
describe("mockModel({ specificationVersion: 'v2' }) under ai@5", () => {
  const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ({ tasks: ["a", "b"] }) }) };
  const respond = [
    { toolCalls: [{ name: "list_tasks" }] },
    ({ toolResults }: { toolResults: readonly { output: unknown }[] }) => `Tasks: ${JSON.stringify(toolResults[0]?.output)}`,
  ];

  test("generateText runs the tool loop, stubbed through a session", async () => {
    const model = mockModel<Exclude<LanguageModel, string>>({ specificationVersion: "v2", respond });
    expect(model.specificationVersion).toBe("v2");
    const session = createSession({
      tools,
      stubs: [{ id: "t", tool: "list_tasks", outcome: { response: { tasks: ["stubbed"] } } }],
      agent: async (message) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(3) })).text,
    });
    const turn = await session.send("tasks?");
    expect(turn.text).toBe('Tasks: {"tasks":["stubbed"]}');
    expect(turn).toHaveModelCalls(2);
    expect(turn.usage.totalTokens).toBeGreaterThan(0);
  });

  test("streamText streams text and tool calls with a finish and usage", async () => {
    const model = mockModel<Exclude<LanguageModel, string>>({ specificationVersion: "v2", respond });
    const result = streamText({ model, tools, prompt: "tasks?", stopWhen: stepCountIs(3) });
    expect(await result.text).toBe('Tasks: {"tasks":["a","b"]}');
    const steps = await result.steps;
    expect(steps.map((step) => step.finishReason)).toEqual(["tool-calls", "stop"]);
    expect((await result.totalUsage).totalTokens).toBeGreaterThan(0);
  });
});
