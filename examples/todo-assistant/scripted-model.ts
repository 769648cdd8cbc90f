import { mockModel, type MockModelRequest, type MockModelResponse } from "tooltrace";

interface TodoList {
  todos: { id: string; title: string; done: boolean }[];
}

/**
 * Stands in for the LLM in the evals: it reads the conversation and answers like a well-behaved model
 * would, so the assistant's real code (prompt, tool loop, tools) runs end to end.
 */
export function todoModel() {
  return mockModel({ modelId: "todo-script", respond: decide });
}

function decide(request: MockModelRequest): MockModelResponse | string {
  const ask = (request.lastUserMessage ?? "").toLowerCase();
  const last = request.messages.at(-1);
  if (last?.role === "user") {
    const add = /^add (.+?)(?: due (\S+))?$/.exec(ask);
    if (add) return { toolCalls: [{ name: "add_todo", input: { title: add[1], ...(add[2] ? { due: add[2] } : {}) } }] };
    return { toolCalls: [{ name: "list_todos", input: {} }] };
  }
  const results = last?.toolResults ?? [];
  const failure = results.find((result) => result.isError);
  if (failure) return `Sorry, I couldn't do that: ${String(failure.output)}`;
  const list = results.find((result) => result.name === "list_todos")?.output as TodoList | undefined;
  if (list) {
    const finish = /^(?:finish|complete) (.+)$/.exec(ask);
    if (finish) {
      const todo = list.todos.find((item) => item.title.toLowerCase().includes(finish[1]!));
      if (!todo) return `I can't find a todo matching "${finish[1]}".`;
      return { text: `Completing "${todo.title}".`, toolCalls: [{ name: "complete_todo", input: { id: todo.id } }] };
    }
    if (list.todos.length === 0) return "You're all done: no open todos.";
    return `You have ${list.todos.length} open todos: ${list.todos.map((todo) => todo.title).join("; ")}.`;
  }
  const done = results.find((result) => result.name === "complete_todo");
  if (done) return `Done: "${(done.output as { title: string }).title}" is complete.`;
  const added = results.find((result) => result.name === "add_todo");
  if (added) return `Added "${(added.output as { title: string }).title}".`;
  return "OK.";
}
