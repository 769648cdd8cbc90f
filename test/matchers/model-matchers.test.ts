import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel } from "tooltrace";

async function twoStepTurn() {
  const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["a"] }) };
  const model = mockModel([
    { text: "Looking.", toolCalls: [{ name: "list_tasks" }], usage: { inputTokens: 100, outputTokens: 10 } },
    { text: "You have a.", usage: { inputTokens: 150, outputTokens: 20 } },
  ]);
  const session = createSession({
    tools,
    agent: async (message) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(4) })).text,
  });
  return { session, turn: await session.send("tasks?") };
}

const plain = (message: string) => message.replace(/\u001b\[\d+m/g, "");

describe("model-call matchers", () => {
  test("toHaveModelCalls counts the turn's model calls", async () => {
    const { turn, session } = await twoStepTurn();
    expect(turn).toHaveModelCalls(2);
    expect(turn).toHaveModelCalls();
    expect(turn).toHaveModelCalls((n) => n <= 3);
    expect(turn).not.toHaveModelCalls(1);
    expect(session).toHaveModelCalls(2);
    let message = "";
    try {
      expect(turn).toHaveModelCalls(1);
    } catch (error) {
      message = plain((error as Error).message);
    }
    expect(message).toContain("Received: 2 model calls");
    expect(message).toContain('1. tooltrace mock-model: tools [list_tasks] → "Looking." + list_tasks({}) (100 in, 10 out)');
  });

  test("toHaveUsageAtMost checks the summed usage", async () => {
    const { turn } = await twoStepTurn();
    expect(turn.usage).toEqual({ inputTokens: 250, outputTokens: 30, totalTokens: 280 });
    expect(turn).toHaveUsageAtMost(280);
    expect(turn).not.toHaveUsageAtMost(279);
    expect(turn).toHaveUsageAtMost({ outputTokens: 30, inputTokens: 300 });
    expect(turn).not.toHaveUsageAtMost({ inputTokens: 200 });
    expect(() => expect(turn).toHaveUsageAtMost({ tokens: 3 } as never)).toThrow(TypeError);
  });

  test("toHaveOfferedTool reads the tools each model call was offered; an unknown name says which is near", async () => {
    const { turn } = await twoStepTurn();
    expect(turn).toHaveOfferedTool("list_tasks");
    expect(() => expect(turn).not.toHaveOfferedTool("list_task")).toThrow(
      '[tooltrace] toHaveOfferedTool: no tool "list_task" in this turn; did you mean "list_tasks"? Tools: list_tasks.',
    );
  });

  test("assistant texts are what the agent said, not the model's replies it did not pass on", async () => {
    const { turn } = await twoStepTurn();
    expect(turn.assistantTexts).toEqual(["You have a."]);
    expect(turn).not.toHaveMessageIncluding("Looking.");
    expect(turn).toHaveMessageIncluding("You have a.");
  });

  test("an agent that drops the model's reply fails toHaveMessageIncluding, with .not too (it passed before)", async () => {
    const model = mockModel("You have milk.");
    // A text-extraction bug: the agent reads the wrong field and says nothing.
    const session = createSession({ agent: async (message) => (await generateText({ model, prompt: message })).reasoningText ?? "" });
    const turn = await session.send("tasks?");
    const expected =
      /the agent said nothing in turn 0 \(its reply text is ""\), though the model replied "You have milk\."\. Is the agent reading the model's reply\?/;
    expect(() => expect(turn).toHaveMessageIncluding("milk")).toThrow(expected);
    expect(() => expect(turn).not.toHaveMessageIncluding("eggs")).toThrow(expected);
  });
});
