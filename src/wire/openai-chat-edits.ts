import {
  type ConversationEditor,
  type EditedResult,
  type HiddenRoundEdit,
  type Item,
  type WireEdits,
  argumentsOf,
  isItem,
  resultText,
} from "./request-edits.js";

/** OpenAI Chat Completions: `tool_calls` by id and `tool` messages by `tool_call_id`; a hidden round is an assistant message and one tool message per result. */
export const chatEditor: ConversationEditor = { key: "messages", patch, round };

function patch(message: Item, edits: WireEdits): Item | Item[] {
  if (message.role === "tool" && typeof message.tool_call_id === "string") {
    const result = edits.results.get(message.tool_call_id);
    const patched = result === undefined ? message : { ...message, content: resultText(result.output) };
    const extra = edits.extraResults.get(message.tool_call_id);
    return extra === undefined ? patched : [patched, ...extra.map(toolMessage)];
  }
  if (!Array.isArray(message.tool_calls)) return message;
  let changed = false;
  const calls = message.tool_calls.flatMap((call: unknown) => {
    if (!isItem(call) || typeof call.id !== "string") return [call];
    const extra = (edits.extraCalls.get(call.id) ?? []).map(toolCall);
    if (!edits.inputs.has(call.id) && extra.length === 0) return [call];
    changed = true;
    if (!edits.inputs.has(call.id)) return [call, ...extra];
    const input = edits.inputs.get(call.id);
    if (call.type === "custom") return [{ ...call, custom: { ...(call.custom as Item), input: argumentsOf(input) } }, ...extra];
    return [{ ...call, function: { ...(call.function as Item), arguments: argumentsOf(input) } }, ...extra];
  });
  return changed ? { ...message, tool_calls: calls } : message;
}

function toolCall(call: HiddenRoundEdit["calls"][number]): Item {
  return { id: call.id, type: "function", function: { name: call.name, arguments: argumentsOf(call.input) } };
}

function toolMessage(result: EditedResult): Item {
  return { role: "tool", tool_call_id: result.id, content: resultText(result.output) };
}

function round(round: HiddenRoundEdit): Item[] {
  return [
    { role: "assistant", content: round.text === "" ? null : round.text, tool_calls: round.calls.map(toolCall) },
    ...round.results.map(toolMessage),
  ];
}
