import { generateText, stepCountIs, streamText, tool } from "ai";
import aiPackage from "ai/package.json" with { type: "json" };
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel } from "tooltrace";

const aiMajor = Number(aiPackage.version.split(".")[0]);

// Specification v4 is ai@7's; npm test runs ai@6, `npm run test:matrix` runs ai@7 on Node 22.
describe.skipIf(aiMajor < 7)(`mockModel in specification v4 (ai@${aiPackage.version})`, () => {
  const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["milk"] }) };

  test("a v4 model through generateText and streamText, traced in a session", async () => {
    const model = mockModel<Parameters<typeof generateText>[0]["model"]>({
      specificationVersion: "v4",
      respond: [{ toolCalls: [{ name: "list_tasks" }] }, "You have milk.", "Streamed."],
    });
    expect((model as unknown as { specificationVersion: string }).specificationVersion).toBe("v4");
    const session = createSession({
      tools,
      agent: async (message) => {
        const generated = await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(3) });
        const streamed = streamText({ model, prompt: message });
        return `${generated.text} ${await streamed.text}`;
      },
    });
    const turn = await session.send("tasks?");
    expect(turn.text).toBe("You have milk. Streamed.");
    expect(turn).toHaveCalledTool("list_tasks", { output: ["milk"] });
    expect(turn.modelCalls.map((call) => call.streamed)).toEqual([false, false, true]);
  });
});
