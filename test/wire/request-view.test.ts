import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type Agent, type MockModelRequest } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { plainTaskTools } from "../fixtures/plain-task-tools.js";
import { anthropicAgent, openaiChatAgent, openaiResponsesAgent } from "../fixtures/sdk-agents.js";

const seen: MockModelRequest[] = [];
let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({
    respond: (request) => {
      seen.push(request);
      const last = request.messages.at(-1);
      if (last?.role === "user")
        return { text: "Checking.", toolCalls: [{ name: "list_tasks" }, { name: "complete_task", input: { task_id: "real-1" } }] };
      return `results: ${last?.toolResults?.map((result) => `${result.name}=${JSON.stringify(result.output)}`).join(" ")}`;
    },
  });
});
afterAll(() => llm.close());

const agents: [string, (tools: ReturnType<typeof plainTaskTools>) => Agent<never>][] = [
  ["openai chat", (tools) => openaiChatAgent(new OpenAI({ apiKey: "k", maxRetries: 0 }), tools, false) as unknown as Agent<never>],
  ["openai responses", (tools) => openaiResponsesAgent(new OpenAI({ apiKey: "k", maxRetries: 0 }), tools, true) as unknown as Agent<never>],
  ["anthropic messages", (tools) => anthropicAgent(new Anthropic({ apiKey: "k", maxRetries: 0 }), tools, false) as unknown as Agent<never>],
];

describe.each(agents)("the request view decoded from %s", (_name, make) => {
  test("parallel tool calls come back as one tool message with every result, named by the call they answer", async () => {
    seen.length = 0;
    const tools = plainTaskTools();
    const session = createSession({ agent: make(tools), tools: tools.tools });
    const turn = await session.send("Tidy up my tasks");
    expect(turn.text).toBe(
      'results: list_tasks={"tasks":[{"id":"real-1","title":"Real task from the database"}]} complete_task={"success":true}',
    );
    const second = seen[1]!;
    const [user, assistant, tool] = second.messages.slice(-3);
    expect([user?.role, assistant?.role, tool?.role]).toEqual(["user", "assistant", "tool"]);
    expect(tool?.toolResults).toHaveLength(2);
    expect(assistant).toMatchObject({
      text: "Checking.",
      toolCalls: [{ name: "list_tasks" }, { name: "complete_task", input: { task_id: "real-1" } }],
    });
    expect(second.toolResults.map((result) => [result.name, result.isError])).toEqual([
      ["list_tasks", false],
      ["complete_task", false],
    ]);
    expect(second.toolResults.map((result) => result.id)).toEqual(assistant?.toolCalls?.map((call) => call.id));
    expect(second).toMatchObject({ userMessages: ["Tidy up my tasks"], userMessageCount: 1, lastUserMessage: "Tidy up my tasks" });
    expect(second.tools.map((tool) => tool.name)).toEqual(["list_tasks", "complete_task"]);
    expect(second.tools[1]?.inputSchema).toMatchObject({ properties: { task_id: { type: "string" } } });
  });
});
