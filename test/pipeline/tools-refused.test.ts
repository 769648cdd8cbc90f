import { tool as openaiAgentsTool } from "@openai/agents";
import { tool as langchainTool } from "@langchain/core/tools";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { tool as aiTool } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession } from "tooltrace";
import { createTaskService } from "../fixtures/tasks.js";
import { runExecute } from "../fixtures/versions.js";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

/** Each of these ran the real tool in strict mode before: tooltrace accepted them by name and never patched them. */
describe("tools tooltrace cannot catch are refused at createSession, naming what they are and what to pass", () => {
  const stub = [{ id: "s", tool: "search", outcome: { response: "stubbed" } }];

  test("an MCP server's registered tool", () => {
    const server = new McpServer({ name: "tasks", version: "1.0.0" });
    const search = server.registerTool("search", { description: "Search.", inputSchema: { q: z.string() } }, async ({ q }) => ({
      content: [{ type: "text", text: `real ${q}` }],
    }));
    expect(() => createSession({ agent: () => "", tools: { search }, stubs: stub })).toThrow(
      /`tools.search` is an MCP server's registered tool/,
    );
  });

  test("AI SDK tools given as an array (AI SDK tools carry no names)", () => {
    const aiTools = [aiTool({ inputSchema: z.object({}), execute: async () => 1 })];
    expect(() => createSession({ agent: () => "", tools: aiTools, stubs: stub })).toThrow(
      /`tools` is an array; tooltrace needs a record keyed by tool name[\s\S]*Fix: pass `\{ list_tasks: listTasks, \.\.\. \}`/,
    );
  });

  test("a value that is not a tool, with the session's call site", () => {
    expect(() => createSession({ agent: () => "", tools: { search: { description: "no executor" } } })).toThrow(
      /`tools.search` is an object without an `execute` function \(keys: description\)[\s\S]*Session created at .*tools-refused\.test\.ts/,
    );
  });

  test("stubs or strict without tools: the real tool would run, so it is refused", async () => {
    const { tools, tasks } = createTaskService();
    const agent = async () => JSON.stringify(await runExecute(tools.complete_task, { task_id: "real-1" }, "c"));
    expect(() => createSession({ agent, strict: true, stubs: [] })).toThrow(
      /createSession: `strict: true` without `tools`[\s\S]*pass `tools: \{\}`/,
    );
    expect(() => createSession({ agent, stubs: [{ id: "c", tool: "complete_task", outcome: { response: 1 } }] })).toThrow(
      /createSession: `stubs` without `tools`/,
    );
    expect(tasks.has("real-1")).toBe(true);
    // An agent without tools says so, and strict mode then holds.
    expect(() => createSession({ agent: () => "hi", tools: {}, strict: true })).not.toThrow();
  });

  test("nothing is left patched when a later tool is refused", () => {
    const { tools } = createTaskService();
    const original = tools.list_tasks.execute;
    expect(() => createSession({ agent: () => "", tools: { ...tools, bad: 42 } as never })).toThrow(/`tools.bad` is number, not a tool/);
    expect(tools.list_tasks.execute).toBe(original);
  });
});

describe("tools without an executor are known by name", () => {
  test("an AI SDK tool the app answers itself can be stubbed by name without being patched", () => {
    const confirm = aiTool({ description: "Ask the user.", inputSchema: z.object({ question: z.string() }) });
    expect(() =>
      createSession({
        agent: () => "",
        tools: { confirm },
        stubs: [{ id: "c", tool: "confirm", outcome: { response: true } }],
        unusedRules: "ignore",
      }),
    ).not.toThrow();
  });
});

describe("framework tools tooltrace catches are accepted, in a record or in the array the agent holds", () => {
  test("LangChain and OpenAI Agents SDK tools (both were accepted by name and never patched before this)", () => {
    const search = langchainTool(async ({ q }: { q: string }) => `real ${q}`, { name: "search", schema: z.object({ q: z.string() }) });
    const lookup = openaiAgentsTool({
      name: "lookup",
      description: "Look up.",
      parameters: z.object({ id: z.string() }),
      execute: async () => "real",
    });
    const session = createSession({
      agent: () => "",
      tools: [search, lookup],
      stubs: [
        { id: "s", tool: "search", outcome: { response: "stubbed" } },
        { id: "l", tool: "lookup", outcome: { response: "stubbed" } },
      ],
      unusedRules: "ignore",
    });
    expect(Object.hasOwn(search, "_call")).toBe(true);
    session.close();
    expect(Object.hasOwn(search, "_call")).toBe(false);
  });
});
