import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { generateText, jsonSchema, stepCountIs, tool, type ToolSet } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mcpTools, mockModel, StubConfigError, type MockModelInput, type MockModelRequest } from "tooltrace";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

/** A real MCP server in memory, with a client connected to it, as an agent holds one. */
async function tasksServer(realRuns: string[]) {
  const server = new McpServer({ name: "tasks", version: "1.0.0" });
  server.registerTool("list_tasks", { description: "List open tasks.", inputSchema: { status: z.string() } }, async ({ status }) => {
    realRuns.push(`list_tasks ${status}`);
    return { content: [{ type: "text", text: JSON.stringify({ tasks: ["Real task"] }) }] };
  });
  server.registerTool("complete_task", { description: "Complete a task.", inputSchema: { task_id: z.string() } }, async ({ task_id }) => {
    realRuns.push(`complete_task ${task_id}`);
    return { content: [{ type: "text", text: "done for real" }] };
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(clientTransport);
  return client;
}

/** An AI SDK agent whose tools call the MCP client, as agents wire MCP tools by hand. */
async function agentOver(client: Client, respond: MockModelInput) {
  const listed = (await client.listTools()).tools;
  const tools: ToolSet = Object.fromEntries(
    listed.map((t) => [
      t.name,
      tool({
        description: t.description ?? "",
        inputSchema: jsonSchema(t.inputSchema as never),
        execute: async (args) => client.callTool({ name: t.name, arguments: args as Record<string, unknown> }),
      }),
    ]),
  );
  const model = mockModel(respond);
  return async (message: string) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(4) })).text;
}

describe("tools reached through an MCP client's callTool are caught at the client", () => {
  test("named server/tool, stubbed, with the schema the server lists in the request view; nothing real runs", async () => {
    const realRuns: string[] = [];
    const client = await tasksServer(realRuns);
    const seen: MockModelRequest[] = [];
    const agent = await agentOver(client, (request: MockModelRequest) => {
      seen.push(request);
      return request.toolResults.length === 0
        ? { toolCalls: [{ name: "list_tasks", input: { status: "open" } }] }
        : `Got: ${JSON.stringify(request.toolResults[0]?.output)}`;
    });
    const session = createSession({
      agent,
      tools: await mcpTools(client, { server: "tasks" }),
      strict: true,
      stubs: [
        { id: "open", tool: "tasks/list_tasks", match: { status: { const: "open" } }, outcome: { response: { tasks: ["Buy milk"] } } },
      ],
    });
    const turn = await session.send("What is open?");
    expect(realRuns).toEqual([]);
    expect(turn).toHaveCalledTool("tasks/list_tasks", { input: { status: "open" }, output: { tasks: ["Buy milk"] } });
    // The agent got a CallToolResult, as from the real server.
    expect(seen[1]?.toolResults[0]?.output).toMatchObject({
      content: [{ type: "text", text: '{"tasks":["Buy milk"]}' }],
      structuredContent: { tasks: ["Buy milk"] },
    });
    expect(seen[0]?.tools.find((t) => t.name === "list_tasks")?.inputSchema).toMatchObject({
      type: "object",
      properties: { status: { type: "string" } },
      required: ["status"],
    });
  });

  test("a stub's throw comes back as an isError result; unmatched calls in strict mode never reach the server", async () => {
    const realRuns: string[] = [];
    const client = await tasksServer(realRuns);
    const agent = await agentOver(client, (request: MockModelRequest) =>
      request.toolResults.length === 0
        ? {
            toolCalls: [
              { name: "list_tasks", input: { status: "open" } },
              { name: "complete_task", input: { task_id: "t1" } },
            ],
          }
        : "ok",
    );
    const session = createSession({
      agent,
      tools: await mcpTools(client, { server: "tasks" }),
      strict: true,
      stubs: [{ id: "down", tool: "tasks/list_tasks", outcome: { throw: { message: "tasks db down" } } }],
    });
    const turn = await session.send("go");
    expect(realRuns).toEqual([]);
    expect(turn).toHaveFailedAction("tasks/list_tasks", { error: "tasks db down" });
    expect(turn).toHaveCalledTool("tasks/complete_task", { status: "rejected" });
    expect(turn.modelCalls[1]?.request).toMatchObject({
      toolResults: [{ output: { isError: true, content: [{ text: "tasks db down" }] } }, { output: { isError: true } }],
    });
    expect(session.takeViolations()).toHaveLength(1);
  });

  test("a call of a tool the server does not list is named with the server's prefix, in strict mode's refusal too", async () => {
    const client = await tasksServer([]);
    const session = createSession({
      agent: async () => {
        await client.callTool({ name: "delete_task", arguments: { task_id: "t1" } }).catch(() => undefined);
        return "done";
      },
      tools: await mcpTools(client, { server: "tasks" }),
      strict: true,
    });
    const turn = await session.send("go");
    expect(turn.toolCalls.map((call) => call.qualifiedName)).toEqual(["tasks/delete_task"]);
    expect(session.takeViolations()).toEqual([expect.stringContaining('no stub rule matched tasks/delete_task({"task_id":"t1"})')]);
  });

  test("stubbing a tool the server does not list is refused, with the near name", async () => {
    const client = await tasksServer([]);
    const tools = await mcpTools(client, { server: "tasks" });
    const make = () => createSession({ agent: () => "", tools, stubs: [{ id: "x", tool: "tasks/list_task", outcome: { response: 1 } }] });
    expect(make).toThrow(StubConfigError);
    expect(make).toThrow(/the session has no tool "tasks\/list_task"[\s\S]*did you mean "tasks\/list_tasks"\?/);
  });

  test("without the session the client is untouched; after it, restored", async () => {
    const client = await tasksServer([]);
    const original = client.request;
    const session = createSession({ agent: () => "", tools: await mcpTools(client, { server: "tasks" }) });
    // Caught at the request layer, where every tools/call goes.
    expect(client.request).not.toBe(original);
    session.close();
    expect(client.request).toBe(original);
  });
});
