import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { createLlmAnswer, serveOnLoopback, type LoopbackServer } from "tooltrace/wire";
import { plainTaskTools, runTool } from "../fixtures/plain-task-tools.js";

// No MSW here: the wire mock's answer() served by a plain node:http server on 127.0.0.1.
const llm = createLlmAnswer({
  respond: ({ toolResults, lastUserMessage }) =>
    toolResults.length === 0 ? { toolCalls: [{ name: "list_tasks" }] } : `${lastUserMessage}: ${JSON.stringify(toolResults[0]?.output)}`,
});
let server: LoopbackServer;
beforeAll(async () => {
  server = await serveOnLoopback(llm.answer);
});
afterAll(() => server.close());

describe("requests arriving on a socket are attributed through the session's route", () => {
  test("an OpenAI client pointed at the route: its calls land on the running turn, tools stubbed in process", async () => {
    const { tools, schemas } = plainTaskTools();
    let client!: OpenAI;
    const session = createSession({
      tools,
      stubs: [{ id: "tasks", tool: "list_tasks", outcome: { response: { tasks: ["stubbed"] } } }],
      agent: async (message) => {
        const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: message }];
        const tooling = schemas.map((fn) => ({ type: "function" as const, function: fn }));
        const first = (await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools: tooling })).choices[0]!.message;
        messages.push(first);
        for (const call of first.tool_calls ?? []) {
          if (call.type !== "function") continue;
          messages.push({
            role: "tool",
            tool_call_id: call.id,
            content: (await runTool(tools, call.function.name, JSON.parse(call.function.arguments))).text,
          });
        }
        return (await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools: tooling })).choices[0]!.message.content ?? "";
      },
    });
    client = new OpenAI({ apiKey: "test", baseURL: `${server.url}${session.route}/v1`, maxRetries: 0 });
    const turn = await session.send("list");
    expect(turn.text).toBe('list: {"tasks":["stubbed"]}');
    expect(turn.modelCalls.map((call) => [call.provider, call.http?.statusCode])).toEqual([
      ["openai.chat", 200],
      ["openai.chat", 200],
    ]);
    expect(turn.modelCalls[0]?.http?.url).toBe(`${server.url}${session.route}/v1/chat/completions`);
    // The tool call the model asked for took the model's id, so the trace pairs them.
    expect(turn.toolCalls.map((call) => [call.id, call.answeredBy?.kind])).toEqual([[turn.modelCalls[0]?.reply.toolCalls[0]?.id, "stub"]]);
    expect(session.interactions.map((record) => record.kind)).toEqual(["model", "tool", "model"]);
  });

  test("a request on a route with no turn running, or an unknown route, gets the provider's error", async () => {
    const session = createSession({ agent: () => "" });
    const anthropic = new Anthropic({ apiKey: "test", baseURL: `${server.url}${session.route}`, maxRetries: 0 });
    const idle = await anthropic.messages
      .create({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
      .catch((error: unknown) => error);
    expect(idle).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String(idle)).toContain("has no turn running");
    const unknown = new Anthropic({ apiKey: "test", baseURL: `${server.url}/tooltrace/nope`, maxRetries: 0 });
    expect(
      String(
        await unknown.messages
          .create({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
          .catch((error: unknown) => error),
      ),
    ).toContain('no tooltrace session has the route token \\"nope');
  });
});
