// The model behind the deployed agent: a fake upstream (tooltrace's wire answer on 127.0.0.1) that reads
// the turn's request the way a real model would, asks for the tools the message needs, and says what
// their results were.
import type { MockModelRequest, MockModelResponse } from "tooltrace";

/** The tool results since the last user message: what this turn's tools answered so far. */
function turnResults(request: MockModelRequest): unknown[] {
  const results: unknown[] = [];
  for (const message of [...request.messages].reverse()) {
    if (message.role === "user") break;
    for (const result of message.toolResults ?? []) results.unshift(result.output);
  }
  return results;
}

const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** "What tasks do I have?" lists them; "Complete <id>" completes one; anything else gets a plain answer. */
export function taskModel(request: MockModelRequest): string | MockModelResponse {
  const asked = request.lastUserMessage ?? "";
  const results = turnResults(request);
  const complete = /complete (\w+)/i.exec(asked);
  if (complete) {
    if (results.length === 0) return { toolCalls: [{ name: "complete_task", input: { task_id: complete[1] } }] };
    return `complete_task said: ${shown(results[0])}`;
  }
  if (/tasks/i.test(asked)) {
    if (results.length === 0) return { toolCalls: [{ name: "list_tasks", input: {} }] };
    const { tasks } = (typeof results[0] === "string" ? JSON.parse(results[0]) : results[0]) as { tasks: { title: string }[] };
    return `You have ${tasks.length} tasks: ${tasks.map((task) => task.title).join(", ")}.`;
  }
  return "I list and complete tasks.";
}
