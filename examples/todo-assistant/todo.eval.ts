import type { ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type ToolStub } from "tooltrace";
import { createTodoAssistant } from "./agent.js";
import { todoModel } from "./scripted-model.js";
import { TodoStore } from "./store.js";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

/** Wraps the assistant for a session: the same tools object the agent holds is what gets stubbed. */
function session(stubs: readonly ToolStub[], options: { strict?: boolean; store?: TodoStore } = {}) {
  const assistant = createTodoAssistant(todoModel(), options.store);
  return createSession<ModelMessage>({
    agent: (message, { history }) => assistant.reply([...history], message),
    tools: assistant.tools,
    stubs,
    strict: options.strict ?? false,
  });
}

const weekTodos: ToolStub = {
  id: "week",
  tool: "list_todos",
  outcomes: [
    {
      response: {
        todos: [
          { id: "a", title: "File taxes", done: false },
          { id: "b", title: "Call mum", done: false },
        ],
      },
    },
    { response: { todos: [{ id: "b", title: "Call mum", done: false }] } },
  ],
};

describe("todo assistant", () => {
  test("summarises the open todos from the list tool", async () => {
    const s = session([weekTodos]);
    const turn = await s.send("What's on my list?");
    expect(turn).toSucceed();
    expect(turn).toHaveCalledTool("list_todos", { count: 1 });
    expect(turn).toHaveMessageIncluding("2 open todos: File taxes; Call mum");
  });

  test("completes the todo the user names, by its id, then reports the shorter list", async () => {
    const s = session(
      [
        weekTodos,
        {
          id: "complete-taxes",
          tool: "complete_todo",
          match: { id: { const: "a" } },
          outcome: { response: { id: "a", title: "File taxes", done: true } },
        },
      ],
      { strict: true },
    );
    const turn = await s.send("Finish taxes");
    expect(turn).toSucceed();
    expect(turn).toHaveToolOrder(["list_todos", { tool: "complete_todo", input: { id: "a" } }]);
    expect(turn).toHaveMessageIncluding('Done: "File taxes" is complete.');
    const next = await s.send("What's left?");
    expect(next).toHaveMessageIncluding("1 open todos: Call mum");
  });

  test("tells the user when the todo service fails", async () => {
    const s = session([
      { id: "down", tool: "list_todos", outcome: { throw: { name: "ServiceUnavailable", message: "todo service is down" } } },
    ]);
    const turn = await s.send("What's on my list?");
    expect(turn).toSucceed();
    expect(turn).toHaveFailedAction("list_todos", { error: "todo service is down" });
    // ai@7 passes the error on as "ServiceUnavailable: todo service is down", ai@6 as the message alone.
    expect(turn).toHaveMessageIncluding(/Sorry, I couldn't do that: (ServiceUnavailable: )?todo service is down/);
  });

  test("adds a todo with the real tool when no stub is given", async () => {
    const store = new TodoStore();
    const s = session([], { store });
    const turn = await s.send("add buy oat milk due friday");
    expect(turn).toHaveCalledTool("add_todo", {
      input: { title: "buy oat milk", due: "friday" },
      output: { id: expect.any(String), done: false },
    });
    expect(store.list().map((todo) => todo.title)).toEqual(["buy oat milk"]);
  });

  test("does not complete anything when the todo does not exist", async () => {
    const s = session([weekTodos]);
    const turn = await s.send("Finish the gym session");
    expect(turn).not.toHaveCalledTool("complete_todo", { status: "any" });
    expect(turn).toHaveAtMostToolCalls(1);
    expect(turn).toHaveMessageIncluding(/can't find a todo/);
  });
});
