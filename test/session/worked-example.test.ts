import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, mockModel } from "tooltrace";
import { aiSdkAgent } from "tooltrace/ai-sdk";
import { createTaskService, taskStubs } from "../fixtures/tasks.js";
import { taskResponder } from "../fixtures/task-responder.js";
import { runTasksExample } from "../fixtures/tasks-example.js";
import { runExecute } from "../fixtures/versions.js";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

function tasksSession(mode: "generate" | "stream" = "generate") {
  const { tools, tasks } = createTaskService();
  const agent = aiSdkAgent({ model: mockModel(taskResponder), tools, system: "You manage the user's tasks.", mode });
  return { session: createSession({ agent, tools, stubs: taskStubs }), tools, tasks };
}

describe.each(["generate", "stream"] as const)("the reference page's worked example (%s)", (mode) => {
  test("the list shrinks after completing milk, and the calls come in order", async () => {
    const { session, tasks } = tasksSession(mode);

    const [, second] = await runTasksExample(session);

    // The stubs answered; the real service was never touched.
    expect(tasks.has("real-1")).toBe(true);
    expect(second.toolCalls.map((call) => call.answeredBy)).toEqual([
      { kind: "stub", ruleId: "complete-milk", outcomeIndex: 0 },
      { kind: "stub", ruleId: "tasks", outcomeIndex: 1 },
    ]);
    expect(session.history.length).toBeGreaterThan(4);
  });
});

describe("sequences are a sequence, not a database", () => {
  test("the second list_tasks returns two tasks even if complete_task never ran", async () => {
    const { session } = tasksSession();
    await session.send("What tasks do I have?");
    const again = await session.send("And now?");
    expect(again).toHaveCalledTool("list_tasks", { output: { tasks: [{ id: "dog" }, { id: "rent" }] } });
    expect(again).not.toHaveCalledTool("complete_task");
    const third = await session.send("And now?");
    expect(third.toolCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "tasks", outcomeIndex: 1 });
  });

  test("a new session starts at the first entry", async () => {
    const a = tasksSession();
    await a.session.send("What tasks do I have?");
    await a.session.send("What tasks do I have?");
    a.session.close();
    const b = tasksSession();
    const turn = await b.session.send("What tasks do I have?");
    expect(turn).toHaveMessageIncluding("Buy milk");
  });
});

describe("error injection and recovery", () => {
  test("a throw outcome fails the call through the agent's error handling; the next call recovers", async () => {
    const { tools } = createTaskService();
    const session = createSession({
      agent: aiSdkAgent({ model: mockModel(taskResponder), tools }),
      tools,
      stubs: [
        {
          id: "tasks",
          tool: "list_tasks",
          outcomes: [{ throw: { name: "TimeoutError", message: "Task service timed out" } }, { response: { tasks: [] } }],
        },
      ],
    });
    const turn = await session.send("List my tasks once. If the service fails, explain the failure and wait for me to retry.");
    expect(turn).toSucceed();
    expect(turn).toHaveCalledTool("list_tasks", { status: "failed", count: 1 });
    expect(turn).toHaveFailedAction("list_tasks", { error: "Task service timed out" });
    expect(turn.toolCalls[0]?.error).toEqual({ name: "TimeoutError", message: "Task service timed out" });
    expect(turn).toHaveMessageIncluding("Task service timed out");
    expect(turn).not.toHaveNoFailedActions();

    const retry = await session.send("Retry now.");
    expect(retry).toHaveNoFailedActions();
    expect(retry).toHaveMessageIncluding("You have no tasks.");
  });

  test("a response that looks like an error is ordinary JSON", async () => {
    const { tools } = createTaskService();
    const session = createSession({
      agent: aiSdkAgent({ model: mockModel(taskResponder), tools }),
      tools,
      stubs: [{ id: "timeout-json", tool: "list_tasks", outcome: { response: { error: "timeout" } } }],
    });
    const turn = await session.send("What tasks?");
    expect(turn).toHaveCalledTool("list_tasks", { status: "completed", output: { error: "timeout" } });
    expect(turn).toHaveNoFailedActions();
  });
});

describe("fall-through and strict mode", () => {
  test("no matching rule: the real tool runs", async () => {
    const { tools, tasks } = createTaskService();
    const session = createSession({
      agent: aiSdkAgent({ model: mockModel(taskResponder), tools }),
      tools,
      stubs: [{ id: "only-milk", tool: "complete_task", match: { task_id: { const: "milk" } }, outcome: { response: { success: true } } }],
      unusedRules: "ignore",
    });
    const turn = await session.send("Complete real-1");
    expect(turn).toHaveCalledTool("complete_task", { input: { task_id: "real-1" }, output: { success: true } });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "real" });
    expect(tasks.has("real-1")).toBe(false);
  });

  test("strict: an unmatched call is rejected, the real tool never runs, and the session records a violation", async () => {
    const { tools, tasks } = createTaskService();
    const session = createSession({
      agent: aiSdkAgent({ model: mockModel(taskResponder), tools }),
      tools,
      strict: true,
      stubs: [{ id: "only-milk", tool: "complete_task", match: { task_id: { const: "milk" } }, outcome: { response: { success: true } } }],
      unusedRules: "ignore",
    });
    const turn = await session.send("Complete real-1");
    expect(tasks.has("real-1")).toBe(true);
    expect(turn).toHaveCalledTool("complete_task", { status: "rejected" });
    expect(turn).not.toSucceed();
    expect(turn).toHaveFailedAction("complete_task", { error: /strict mode: no stub rule matched complete_task/ });
    expect(session.violations).toHaveLength(1);
    expect(session.takeViolations()).toHaveLength(1);
  });
});

describe("sessions restore the tools", () => {
  test("close() puts the original executors back; calls outside a turn always reach the real tool", async () => {
    const { tools } = createTaskService();
    const original = tools.list_tasks.execute;
    const session = createSession({
      agent: () => "hi",
      tools,
      stubs: [{ id: "t", tool: "list_tasks", outcome: { response: { tasks: [] } } }],
      unusedRules: "ignore",
    });
    expect(tools.list_tasks.execute).not.toBe(original);
    const direct = await runExecute(tools.list_tasks, {}, "x");
    expect(direct).toEqual({ tasks: [{ id: "real-1", title: "Real task from the database" }] });
    session.close();
    expect(tools.list_tasks.execute).toBe(original);
  });
});
