import { describe, expect, test } from "vitest";
import { failure } from "../fixtures/failure.js";
import { recordedTurn } from "../fixtures/recorded-turn.js";

describe("toHaveCalledTool", () => {
  test("input and output match like toMatchObject, with RegExp, predicates and asymmetric matchers", async () => {
    const { turn } = await recordedTurn();
    expect(turn).toHaveCalledTool("complete_task", { input: { task_id: "milk" }, output: { success: true } });
    expect(turn).toHaveCalledTool("complete_task", { input: { task_id: expect.any(String) } });
    expect(turn).toHaveCalledTool("complete_task", { input: { task_id: /^mil/ } });
    expect(turn).toHaveCalledTool("list_tasks", { output: /Walk dog/ });
    expect(turn).toHaveCalledTool("list_tasks", { output: { tasks: expect.arrayContaining(["Walk dog"]) } });
    expect(turn).toHaveCalledTool("complete_task", { input: (input: unknown) => (input as { task_id: string }).task_id.length === 4 });
    expect(turn).not.toHaveCalledTool("complete_task", { input: { task_id: "dog" } });
    expect(turn).not.toHaveCalledTool("list_tasks", { output: { tasks: ["Buy milk"] } });
  });

  test("status defaults to completed; count is exact or a predicate", async () => {
    const { turn } = await recordedTurn();
    expect(turn).not.toHaveCalledTool("notify");
    expect(turn).toHaveCalledTool("notify", { status: "failed", count: 1 });
    expect(turn).toHaveCalledTool("notify", { status: "any" });
    expect(turn).toHaveCalledTool("list_tasks", { count: (n) => n < 2 });
    expect(turn).not.toHaveCalledTool("list_tasks", { count: 2 });
  });

  test("works on a session and on an array of calls", async () => {
    const { session, turn } = await recordedTurn();
    expect(session).toHaveCalledTool("list_tasks");
    expect(turn.toolCalls).toHaveCalledTool("complete_task");
    expect(turn.toolCalls.filter((call) => call.tool === "notify")).not.toHaveCalledTool("complete_task");
  });

  test("the failure message lists the expected call against every numbered call", async () => {
    const { turn } = await recordedTurn();
    const message = failure(() => expect(turn).toHaveCalledTool("complete_task", { input: { task_id: "dog" }, count: 1 }));
    expect(message).toContain('Expected: "complete_task" called exactly once, with status "completed", input { task_id: "dog" }');
    expect(message).toContain('Received: 0 matching calls (1 call to "complete_task" in all)');
    expect(message).toContain("Tool calls (3):");
    expect(message).toContain('1. list_tasks({}) → completed {"tasks":["Buy milk","Walk dog"]} [stub "tasks" #1]');
    expect(message).toContain('2. complete_task({"task_id":"milk"}) → completed {"success":true,"id":"milk"} [real tool]');
    expect(message).toContain('3. notify({"to":"ada@example.com"}) → failed: TimeoutError: SMTP server down [stub "notify-down" #1]');
  });

  test(".not prints what was not expected", async () => {
    const { turn } = await recordedTurn();
    const message = failure(() => expect(turn).not.toHaveCalledTool("list_tasks"));
    expect(message).toContain(".not.toHaveCalledTool");
    expect(message).not.toContain(".not.not");
    expect(message).toContain('Expected: not "list_tasks" called at least once');
  });

  test("bad arguments are TypeErrors that say what to pass", async () => {
    const { turn } = await recordedTurn();
    expect(() => expect(turn).toHaveCalledTool("x", { count: -1 })).toThrow(TypeError);
    expect(() => expect(turn).toHaveCalledTool("x", { cuont: 1 } as never)).toThrow(/unknown option `cuont`/);
    expect(() => expect(turn).toHaveCalledTool("x", { status: "done" as never })).toThrow(/unknown status "done"/);
    expect(failure(() => expect({ hello: 1 }).toHaveCalledTool("x"))).toContain(
      "reads a turn (from session.send), a session, or an array of tool calls",
    );
  });

  test("works as an asymmetric matcher inside toEqual", async () => {
    const { turn } = await recordedTurn();
    expect({ result: turn }).toEqual({ result: expect.toHaveCalledTool("list_tasks") });
    expect({ result: turn }).not.toEqual({ result: expect.toHaveCalledTool("list_tasks", { count: 5 }) });
  });
});

describe("toHaveToolOrder", () => {
  test("a subsequence: others may sit between, a repeated name needs repeated calls", async () => {
    const { turn } = await recordedTurn();
    expect(turn).toHaveToolOrder(["list_tasks", "notify"]);
    expect(turn).toHaveToolOrder(["list_tasks", { tool: "complete_task", input: { task_id: "milk" } }, "notify"]);
    expect(turn).not.toHaveToolOrder(["notify", "list_tasks"]);
    expect(turn).not.toHaveToolOrder(["list_tasks", "list_tasks"]);
    const message = failure(() => expect(turn).toHaveToolOrder(["complete_task", "list_tasks"]));
    expect(message).toContain("Expected: calls in order: complete_task → list_tasks");
    expect(message).toContain('Received: the first 1 in order, then no "list_tasks" after call 2');
  });
});

describe("toHaveFailedAction and toHaveNoFailedActions", () => {
  test("by tool, by error text or RegExp or asymmetric matcher, with count", async () => {
    const { turn } = await recordedTurn();
    expect(turn).toHaveFailedAction();
    expect(turn).toHaveFailedAction("notify");
    expect(turn).toHaveFailedAction("notify", { error: "SMTP" });
    expect(turn).toHaveFailedAction({ error: /server down$/, count: 1 });
    expect(turn).toHaveFailedAction("notify", { error: expect.objectContaining({ name: "TimeoutError" }) });
    expect(turn).not.toHaveFailedAction("list_tasks");
    expect(turn).not.toHaveFailedAction("notify", { error: "quota" });
    expect(turn).not.toHaveNoFailedActions();
    expect(turn.toolCalls.slice(0, 2)).toHaveNoFailedActions();
    expect(failure(() => expect(turn).toHaveNoFailedActions())).toContain("Received: 1 failed: notify");
  });
});

describe("text and counts", () => {
  test("toHaveMessageIncluding, toHaveUsedNoTools, toHaveAtMostToolCalls, toSucceed", async () => {
    const { turn, session } = await recordedTurn();
    expect(turn).toHaveMessageIncluding("completed Buy milk");
    expect(turn).toHaveMessageIncluding(/could not send/);
    expect(turn).not.toHaveMessageIncluding("Walk dog");
    expect(failure(() => expect(turn).toHaveMessageIncluding("Walk dog"))).toContain(
      '1. "I completed Buy milk but could not send the email."',
    );
    expect(turn).not.toHaveUsedNoTools();
    expect([]).toHaveUsedNoTools();
    expect(turn).toHaveAtMostToolCalls(3);
    expect(turn).not.toHaveAtMostToolCalls(2);
    expect(turn).toHaveAtMostToolCalls(1, "notify");
    expect(turn).toSucceed();
    expect(session).toSucceed();
  });
});
