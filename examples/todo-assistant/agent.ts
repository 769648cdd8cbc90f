import { generateText, stepCountIs, tool, type LanguageModel, type ModelMessage } from "ai";
import { z } from "zod";
import { TodoStore } from "./store.js";

export const SYSTEM_PROMPT = `You are a todo assistant. Use list_todos before you answer questions about the user's todos.
Complete todos by id with complete_todo; add new ones with add_todo. If a tool fails, say so plainly.`;

/** The assistant's tools over a store: what the production agent runs. */
export function createTodoTools(store: TodoStore) {
  return {
    list_todos: tool({
      description: "List the user's todos.",
      inputSchema: z.object({ include_done: z.boolean().optional() }),
      execute: async ({ include_done }) => ({ todos: store.list(include_done) }),
    }),
    add_todo: tool({
      description: "Add a todo.",
      inputSchema: z.object({ title: z.string().min(1), due: z.string().optional() }),
      execute: async ({ title, due }) => store.add(title, due),
    }),
    complete_todo: tool({
      description: "Mark a todo as done.",
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => store.complete(id),
    }),
  };
}

/** The todo assistant: one call answers one user message, running the AI SDK tool loop. */
export function createTodoAssistant(model: LanguageModel, store = new TodoStore()) {
  const tools = createTodoTools(store);
  async function reply(history: ModelMessage[], message: string) {
    const messages: ModelMessage[] = [...history, { role: "user", content: message }];
    const result = await generateText({ model, system: SYSTEM_PROMPT, tools, messages, stopWhen: stepCountIs(6) });
    // ai@7 keeps only the last step in `response.messages`; `responseMessages` holds them all.
    const added = (result as { responseMessages?: ModelMessage[] }).responseMessages ?? result.response.messages;
    return { text: result.text, messages: [messages.at(-1)!, ...added] };
  }
  return { tools, store, reply };
}
