import {
  type ConversationEditor,
  type EditedResult,
  type HiddenRoundEdit,
  type Item,
  type WireEdits,
  argumentsOf,
  resultText,
} from "./request-edits.js";

/** OpenAI Responses: `function_call` and `function_call_output` items by `call_id`; a hidden round is those items. */
export const responsesEditor: ConversationEditor = { key: "input", patch, round };

function patch(item: Item, edits: WireEdits): Item | Item[] {
  const id = typeof item.call_id === "string" ? item.call_id : undefined;
  if (id === undefined) return item;
  if (item.type === "function_call" || item.type === "custom_tool_call") {
    const input = edits.inputs.get(id);
    const patched = !edits.inputs.has(id)
      ? item
      : item.type === "custom_tool_call"
        ? { ...item, input: argumentsOf(input) }
        : { ...item, arguments: argumentsOf(input) };
    const extra = edits.extraCalls.get(id);
    return extra === undefined ? patched : [patched, ...extra.map(functionCall)];
  }
  if (item.type !== "function_call_output" && item.type !== "custom_tool_call_output") return item;
  const result = edits.results.get(id);
  const patched = result === undefined ? item : { ...item, output: resultText(result.output) };
  const extra = edits.extraResults.get(id);
  return extra === undefined ? patched : [patched, ...extra.map(functionOutput)];
}

function functionCall(call: HiddenRoundEdit["calls"][number]): Item {
  return { type: "function_call", call_id: call.id, name: call.name, arguments: argumentsOf(call.input) };
}

function functionOutput(result: EditedResult): Item {
  return { type: "function_call_output", call_id: result.id, output: resultText(result.output) };
}

function round(round: HiddenRoundEdit): Item[] {
  return [
    ...(round.text === "" ? [] : [{ type: "message", role: "assistant", content: [{ type: "output_text", text: round.text }] }]),
    ...round.calls.map(functionCall),
    ...round.results.map(functionOutput),
  ];
}
