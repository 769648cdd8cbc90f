import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel, type MockModelReply, type ToolStub } from "tooltrace";
import { aiSdkAgent } from "tooltrace/ai-sdk";

/** Tools whose real executors say they ran, so a test can tell stub from real. */
function tools() {
  return {
    complete_task: tool({ inputSchema: z.object({ task_id: z.string() }), execute: async ({ task_id }) => ({ real: true, task_id }) }),
    get_status: tool({ inputSchema: z.object({ job: z.string() }), execute: async () => ({ real: true }) }),
    search_tasks: tool({
      inputSchema: z.object({
        query: z.string(),
        filter: z.object({ status: z.string().optional() }).passthrough().optional(),
        tags: z.array(z.string()).optional(),
        limit: z.union([z.number(), z.string()]).optional(),
      }),
      execute: async () => ({ real: true }),
    }),
  };
}

/** A model that makes the given calls in one step (parallel), then says "done". */
function callsThenDone(...calls: { name: string; input: unknown }[]): MockModelReply[] {
  return [{ toolCalls: calls }, "done"];
}

async function run(stubs: readonly ToolStub[], script: MockModelReply[], turns = 1) {
  const t = tools();
  const session = createSession({
    agent: aiSdkAgent({ model: mockModel(script.concat(Array(turns * 2).fill("done"))), tools: t }),
    tools: t,
    stubs,
    unusedRules: "ignore",
  });
  for (let i = 0; i < turns; i++) await session.send(`turn ${i}`);
  return session;
}

const outputs = (session: { toolCalls: readonly { output?: unknown }[] }) => session.toolCalls.map((call) => call.output);

describe("first match wins", () => {
  const milk: ToolStub = {
    id: "milk",
    tool: "complete_task",
    match: { task_id: { const: "milk" } },
    outcome: { response: { success: true } },
  };
  const other: ToolStub = { id: "other-tasks", tool: "complete_task", outcome: { response: { success: false } } };

  test("specific rule before the fallback", async () => {
    const session = await run(
      [milk, other],
      callsThenDone({ name: "complete_task", input: { task_id: "milk" } }, { name: "complete_task", input: { task_id: "dog" } }),
    );
    expect(outputs(session)).toEqual([{ success: true }, { success: false }]);
    expect(session.toolCalls.map((call) => call.answeredBy)).toEqual([
      { kind: "stub", ruleId: "milk", outcomeIndex: 0 },
      { kind: "stub", ruleId: "other-tasks", outcomeIndex: 0 },
    ]);
  });

  test("reversed, the unconditional rule wins every time", async () => {
    const session = await run(
      [other, milk],
      callsThenDone({ name: "complete_task", input: { task_id: "milk" } }, { name: "complete_task", input: { task_id: "dog" } }),
    );
    expect(outputs(session)).toEqual([{ success: false }, { success: false }]);
    expect(session.unusedRuleIds()).toEqual(["milk"]);
  });
});

describe("sequences", () => {
  const statusRule: ToolStub = { id: "status", tool: "get_status", outcomes: [{ response: "pending" }, { response: "completed" }] };

  test("outcomes advance once per call and then repeat the last entry, across turns", async () => {
    const call = { name: "get_status", input: { job: "a" } };
    const session = await run([statusRule], [...callsThenDone(call), ...callsThenDone(call), ...callsThenDone(call)], 3);
    expect(outputs(session)).toEqual(["pending", "completed", "completed"]);
    expect(session.turns.map((turn) => turn.toolCalls.length)).toEqual([1, 1, 1]);
    expect(session.ruleUsage().get("status")).toBe(3);
  });

  test("outcome repeats on every call", async () => {
    const call = { name: "get_status", input: { job: "a" } };
    const session = await run([{ id: "s", tool: "get_status", outcome: { response: "same" } }], callsThenDone(call, call, call));
    expect(outputs(session)).toEqual(["same", "same", "same"]);
  });

  test("parallel calls consume entries in arrival order", async () => {
    const rule: ToolStub = { id: "s", tool: "get_status", outcomes: [{ response: 1 }, { response: 2 }, { response: 3 }] };
    const session = await run(
      [rule],
      callsThenDone(
        { name: "get_status", input: { job: "a" } },
        { name: "get_status", input: { job: "b" } },
        { name: "get_status", input: { job: "c" } },
      ),
    );
    expect(session.toolCalls.map((call) => [(call.input as { job: string }).job, call.output])).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
  });

  test("only the selected rule advances, and an exhausted rule never hands over to a later one", async () => {
    const rules: ToolStub[] = [
      { id: "a-jobs", tool: "get_status", match: { job: { const: "a" } }, outcomes: [{ response: "a1" }, { response: "a2" }] },
      { id: "any-job", tool: "get_status", outcomes: [{ response: "x1" }, { response: "x2" }] },
    ];
    const a = { name: "get_status", input: { job: "a" } };
    const b = { name: "get_status", input: { job: "b" } };
    const session = await run(rules, callsThenDone(a, b, a, a, b));
    expect(outputs(session)).toEqual(["a1", "x1", "a2", "a2", "x2"]);
  });

  test("a throw outcome consumes an entry like a response", async () => {
    const rule: ToolStub = { id: "s", tool: "get_status", outcomes: [{ throw: { message: "Service unavailable" } }, { response: "ok" }] };
    const call = { name: "get_status", input: { job: "a" } };
    const session = await run([rule], callsThenDone(call, call));
    expect(session.toolCalls.map((c) => c.status)).toEqual(["failed", "completed"]);
    expect(session.toolCalls[0]?.error).toEqual({ name: "Error", message: "Service unavailable" });
  });
});

describe("match constraints", () => {
  const referenceRule: ToolStub = {
    id: "open-tasks",
    tool: "search_tasks",
    match: {
      filter: { type: "object", properties: { status: { const: "open" } }, required: ["status"] },
      query: { type: "string", pattern: "\\b[Mm][Ii][Ll][Kk]\\b" },
      tags: { type: "array", contains: { const: "urgent" } },
    },
    outcome: { response: { tasks: ["Buy milk"] } },
  };
  const search = (input: unknown) => ({ name: "search_tasks", input });

  test.each([
    [
      "all listed properties fit, extra ones allowed",
      { query: "buy MILK", filter: { status: "open", owner: "me" }, tags: ["home", "urgent"], limit: 3 },
      true,
    ],
    ["a listed property is missing", { query: "buy milk", filter: { status: "open" } }, false],
    ["a required nested property is missing", { query: "milk", filter: {}, tags: ["urgent"] }, false],
    ["the pattern does not match", { query: "buy milkshake", filter: { status: "open" }, tags: ["urgent"] }, false],
    ["contains fails", { query: "milk", filter: { status: "open" }, tags: ["home"] }, false],
  ])("the reference page's search rule: %s", async (_name, input, stubbed) => {
    const session = await run([referenceRule], callsThenDone(search(input)));
    expect(session.toolCalls[0]?.answeredBy?.kind).toBe(stubbed ? "stub" : "real");
  });

  test("nested properties are optional unless required", async () => {
    const rule: ToolStub = {
      id: "r",
      tool: "search_tasks",
      match: { filter: { type: "object", properties: { status: { const: "open" } } } },
      outcome: { response: "stub" },
    };
    const session = await run(
      [rule],
      callsThenDone(search({ query: "q", filter: {} }), search({ query: "q", filter: { status: "done" } })),
    );
    expect(outputs(session)).toEqual(["stub", { real: true }]);
  });

  test('no coercion: the string "5" is not the number 5', async () => {
    const rule: ToolStub = {
      id: "r",
      tool: "search_tasks",
      match: { limit: { type: "number", minimum: 5 } },
      outcome: { response: "stub" },
    };
    const session = await run([rule], callsThenDone(search({ query: "q", limit: "5" }), search({ query: "q", limit: 5 })));
    expect(outputs(session)).toEqual([{ real: true }, "stub"]);
    expect(session.toolCalls[0]?.input).toEqual({ query: "q", limit: "5" });
  });

  test("logical and conditional schemas", async () => {
    const rule: ToolStub = {
      id: "r",
      tool: "search_tasks",
      match: {
        query: { anyOf: [{ const: "a" }, { const: "b" }], not: { const: "b" } },
        limit: { if: { minimum: 10 }, then: { maximum: 20 }, else: { const: 1 } },
      },
      outcome: { response: "stub" },
    };
    const session = await run(
      [rule],
      callsThenDone(
        search({ query: "a", limit: 15 }),
        search({ query: "a", limit: 25 }),
        search({ query: "b", limit: 1 }),
        search({ query: "a", limit: 1 }),
      ),
    );
    expect(outputs(session)).toEqual(["stub", { real: true }, { real: true }, "stub"]);
  });

  test("the reference page's inline modifier (?i:milk) works on every Node version (RE2 runs it where V8 cannot)", async () => {
    const session = await run(
      [{ id: "r", tool: "search_tasks", match: { query: { pattern: "\\b(?i:milk)\\b" } }, outcome: { response: "stub" } }],
      callsThenDone(search({ query: "Buy MILK today" }), search({ query: "buttermilk" }), search({ query: "milk" })),
    );
    expect(outputs(session)).toEqual(["stub", { real: true }, "stub"]);
  });

  test("the real tool's input validation runs before a stub answers", async () => {
    const t = tools();
    const session = createSession({
      agent: aiSdkAgent({ model: mockModel([{ toolCalls: [{ name: "complete_task", input: { task_id: 42 } }] }, "done"]), tools: t }),
      tools: t,
      stubs: [{ id: "any", tool: "complete_task", outcome: { response: "stub" } }],
      unusedRules: "ignore",
    });
    const turn = await session.send("go");
    // The AI SDK refused the input before the executor ran: the call is in the trace as rejected, no rule used.
    expect(turn.toolCalls).toHaveLength(1);
    expect(turn).toHaveCalledTool("complete_task", { status: "rejected", input: { task_id: 42 }, count: 1 });
    expect(turn).toHaveFailedAction("complete_task", { error: /Invalid input for tool complete_task/ });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "outside" });
    expect(session.unusedRuleIds()).toEqual(["any"]);
  });
});

describe("subagent paths", () => {
  function researchSetup(stubs: ToolStub[]) {
    const researcherTools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["real research task"] }) };
    const rootTools = {
      list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["real root task"] }),
      researcher: tool({
        inputSchema: z.object({ question: z.string() }),
        execute: async ({ question }) => {
          const sub = await generateText({
            model: mockModel([
              { toolCalls: [{ name: "list_tasks" }] },
              ({ toolResults }) => `research: ${JSON.stringify(toolResults[0]?.output)}`,
            ]),
            tools: researcherTools,
            prompt: question,
            stopWhen: stepCountIs(3),
          });
          return sub.text;
        },
      }),
    };
    const model = mockModel([{ toolCalls: [{ name: "list_tasks" }, { name: "researcher", input: { question: "what?" } }] }, "done"]);
    return createSession({
      agent: aiSdkAgent({ model, tools: rootTools }),
      tools: rootTools,
      subagents: { researcher: researcherTools },
      stubs,
      unusedRules: "ignore",
    });
  }

  test("a qualified rule replaces only the subagent's tool; a root rule never matches it", async () => {
    const session = researchSetup([
      { id: "root-tasks", tool: "list_tasks", outcome: { response: ["Root task"] } },
      { id: "research-tasks", tool: "researcher/list_tasks", outcome: { response: ["Research task"] } },
    ]);
    const turn = await session.send("go");
    expect(turn).toHaveCalledTool("list_tasks", { output: ["Root task"], count: 1 });
    expect(turn).toHaveCalledTool("researcher/list_tasks", { output: ["Research task"], count: 1 });
    expect(turn).toHaveCalledTool("researcher", { output: 'research: ["Research task"]' });
    expect(turn.toolCalls.find((call) => call.qualifiedName === "researcher/list_tasks")?.path).toEqual(["researcher"]);
  });

  test("with only a root rule, the subagent's tool runs for real", async () => {
    const session = researchSetup([{ id: "root-tasks", tool: "list_tasks", outcome: { response: ["Root task"] } }]);
    const turn = await session.send("go");
    expect(turn).toHaveCalledTool("researcher/list_tasks", { output: ["real research task"] });
    expect(turn.toolCalls.find((call) => call.qualifiedName === "researcher/list_tasks")?.answeredBy).toEqual({ kind: "real" });
  });

  test("stubbing the delegation tool replaces the whole subagent", async () => {
    const session = researchSetup([{ id: "researcher", tool: "researcher", outcome: { response: "canned research" } }]);
    const turn = await session.send("go");
    expect(turn).toHaveCalledTool("researcher", { output: "canned research" });
    expect(turn).not.toHaveCalledTool("researcher/list_tasks", { status: "any" });
  });
});
