import { ChatOpenAI } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { taskResponder } from "../fixtures/task-responder.js";
import { taskStubs } from "../fixtures/tasks.js";
import { runTasksExample } from "../fixtures/tasks-example.js";

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({ respond: taskResponder });
});
afterAll(() => llm.close());

/** The tasks agent as a LangChain v1 team writes it: `tool()` objects in an array, `createAgent`, ChatOpenAI. */
function langchainTasks() {
  const realRuns: string[] = [];
  const tools = [
    tool(async () => (realRuns.push("list_tasks"), { tasks: [{ id: "real-1", title: "Real task from the database" }] }), {
      name: "list_tasks",
      description: "List the user's open tasks.",
      schema: z.object({}),
    }),
    tool(async ({ task_id }: { task_id: string }) => (realRuns.push(`complete_task ${task_id}`), { success: true }), {
      name: "complete_task",
      description: "Mark a task as done.",
      schema: z.object({ task_id: z.string() }),
    }),
  ];
  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", maxRetries: 0 });
  const agent = createAgent({ model, tools, systemPrompt: "You manage the user's tasks." });
  return { tools, agent, realRuns };
}

describe("LangChain tools are caught, stubbed and traced", () => {
  test("createAgent with tool() objects in an array: the worked example, stubs answering, nothing real runs", async () => {
    const { tools, agent, realRuns } = langchainTasks();
    const session = createSession({
      tools,
      stubs: taskStubs,
      strict: true,
      agent: async (message, { history }) => {
        const state = await agent.invoke({ messages: [...(history as never[]), { role: "user", content: message }] });
        const last = state.messages.at(-1);
        return { text: String(last?.content ?? ""), messages: state.messages.slice(history.length) };
      },
    });
    const [first, second] = await runTasksExample(session);
    expect(realRuns).toEqual([]);
    expect(first.toolCalls[0]).toMatchObject({ tool: "list_tasks", answeredBy: { kind: "stub", ruleId: "tasks" } });
    // The call took LangChain's own id, which is the model's.
    expect(second.toolCalls.map((call) => call.id)).toEqual(
      second.modelCalls.flatMap((call) => call.reply.toolCalls.map((asked) => asked.id)),
    );
  });

  test("a stub's throw surfaces as a LangChain tool error (a ToolMessage with error status) the model reads", async () => {
    const { tools, agent } = langchainTasks();
    const session = createSession({
      tools,
      stubs: [{ id: "down", tool: "list_tasks", outcome: { throw: { name: "TimeoutError", message: "Task service timed out" } } }],
      agent: async (message) => {
        const state = await agent.invoke({ messages: [{ role: "user", content: message }] });
        const toolMessage = state.messages.find((m) => m.getType() === "tool") as { status?: string } | undefined;
        return `${toolMessage?.status}: ${String(state.messages.at(-1)?.content)}`;
      },
    });
    const turn = await session.send("What tasks do I have?");
    expect(turn.text).toMatch(/^error: /);
    expect(turn).toHaveFailedAction("list_tasks", { error: "Task service timed out" });
    // What the model read next: LangChain's own error text for a failed tool.
    const next = turn.modelCalls[1]?.request;
    expect(String(next?.toolResults[0]?.output)).toContain("Task service timed out");
  });

  test("an unmatched call in strict mode never runs the real tool", async () => {
    const { tools, agent, realRuns } = langchainTasks();
    const session = createSession({
      tools,
      strict: true,
      agent: async (message) => String((await agent.invoke({ messages: [{ role: "user", content: message }] })).messages.at(-1)?.content),
    });
    const turn = await session.send("What tasks do I have?");
    expect(realRuns).toEqual([]);
    expect(turn).toHaveCalledTool("list_tasks", { status: "rejected" });
    expect(session.takeViolations()).toHaveLength(1);
  });
});

describe("LangGraph's createReactAgent", () => {
  test("its tools are caught, stubbed and traced; nothing real runs", async () => {
    const { tools, realRuns } = langchainTasks();
    const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", maxRetries: 0 });
    const graph = createReactAgent({ llm: model, tools, prompt: "You manage the user's tasks." });
    const session = createSession({
      tools,
      stubs: taskStubs,
      strict: true,
      agent: async (message, { history }) => {
        const state = await graph.invoke({ messages: [...(history as never[]), { role: "user", content: message }] });
        const last = state.messages.at(-1);
        return { text: String(last?.content ?? ""), messages: state.messages.slice(history.length) };
      },
    });
    const [first, second] = await runTasksExample(session);
    expect(realRuns).toEqual([]);
    expect(first.toolCalls[0]).toMatchObject({ tool: "list_tasks", answeredBy: { kind: "stub", ruleId: "tasks" } });
    expect(second).toHaveCalledTool("complete_task", { input: { task_id: "milk" } });
    expect(session.takeViolations()).toEqual([]);
  });
});
