import { describe, expect, test } from "vitest";
import { createRuleSet, createSession, StubConfigError, type ToolStub } from "tooltrace";
import { createTaskService } from "../fixtures/tasks.js";

// Rule lists with the same JSON are validated and compiled about once per worker (kept from their second
// session on); each session keeps its own state.
const rules = (response: unknown): ToolStub[] => [
  { id: "list", tool: "list_tasks", outcomes: [{ response }, { response: { tasks: [] } }] },
];

function refusal(stubs: unknown, tools = createTaskService().tools): StubConfigError {
  try {
    createSession({ tools, agent: async () => "", stubs: stubs as ToolStub[] });
  } catch (error) {
    if (error instanceof StubConfigError) return error;
    throw error;
  }
  throw new Error("expected the session to be refused");
}

describe("rule lists shared by their JSON", () => {
  test("each session has its own sequence, and an agent that changes a response changes no other session's", async () => {
    const answers: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const { tools } = createTaskService();
      const session = createSession({
        tools,
        stubs: rules({ tasks: [{ id: "a", title: "A" }] }),
        agent: async () => {
          const call = { toolCallId: "1", messages: [] };
          const first = (await tools.list_tasks.execute?.({}, call)) as { tasks: { title: string }[] };
          answers.push(structuredClone(first));
          (first.tasks[0] as { title: string }).title = "changed by the agent";
          answers.push(await tools.list_tasks.execute?.({}, call));
          return "done";
        },
      });
      await session.send("go");
    }
    const first = { tasks: [{ id: "a", title: "A" }] };
    expect(answers).toEqual([first, { tasks: [] }, first, { tasks: [] }, first, { tasks: [] }]);
  });

  test("a value that is not JSON is refused even when its JSON matches a list accepted before", () => {
    for (let i = 0; i < 2; i++) createRuleSet(rules({ when: "1970-01-01T00:00:00.000Z", n: null, gone: {} }));
    expect(refusal(rules({ when: new Date(0), n: null, gone: {} })).pointer).toBe("/outcomes/0/response/when");
    expect(refusal(rules({ when: "1970-01-01T00:00:00.000Z", n: Number.NaN, gone: {} })).pointer).toBe("/outcomes/0/response/n");
    expect(refusal(rules({ when: "1970-01-01T00:00:00.000Z", n: null, gone: new Map() })).pointer).toBe("/outcomes/0/response/gone");
  });

  test("-0 stays -0 (its JSON is 0)", () => {
    for (let i = 0; i < 2; i++) createRuleSet(rules(0));
    const selection = createRuleSet(rules(-0)).select("list_tasks", {});
    expect(Object.is(selection?.outcome && "response" in selection.outcome && selection.outcome.response, -0)).toBe(true);
  });

  test("the tool names are checked against each session's tools", () => {
    const stubs = rules({ tasks: [] });
    for (let i = 0; i < 2; i++) createRuleSet(stubs, { knownTools: new Set(["list_tasks"]) });
    expect(() => createRuleSet(stubs, { knownTools: new Set(["list_tasks"]) })).not.toThrow();
    const error = refusal(stubs, { other: { description: "", execute: async () => 1 } } as never);
    expect(error.pointer).toBe("/tool");
    expect(error.message).toContain('the session has no tool "list_tasks"');
  });

  test("a shared outcome cannot be changed through a selection", () => {
    for (let i = 0; i < 2; i++) createRuleSet(rules({ tasks: [{ id: "a" }] }));
    const selection = createRuleSet(rules({ tasks: [{ id: "a" }] })).select("list_tasks", {});
    const response = (selection?.outcome as { response: { tasks: { id: string }[] } } | undefined)?.response;
    expect(response).toBeDefined();
    expect(() => {
      (response?.tasks[0] as { id: string }).id = "b";
    }).toThrow(TypeError);
    expect(createRuleSet(rules({ tasks: [{ id: "a" }] })).select("list_tasks", {})?.outcome).toEqual({
      response: { tasks: [{ id: "a" }] },
    });
  });
});
