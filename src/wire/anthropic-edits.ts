import {
  type ConversationEditor,
  type EditedResult,
  type HiddenRoundEdit,
  type Item,
  type WireEdits,
  isItem,
  resultText,
} from "./request-edits.js";

/** Anthropic Messages: tool_use and tool_result blocks by id; a hidden round is an assistant message and a user message of results. */
export const anthropicEditor: ConversationEditor = { key: "messages", patch, round };

function patch(message: Item, edits: WireEdits): Item {
  if (!Array.isArray(message.content)) return message;
  let changed = false;
  const content = message.content.flatMap((block: unknown) => {
    if (!isItem(block)) return [block];
    if (block.type === "tool_use" && typeof block.id === "string") {
      const extra = (edits.extraCalls.get(block.id) ?? []).map(toolUse);
      if (!edits.inputs.has(block.id) && extra.length === 0) return [block];
      changed = true;
      return [edits.inputs.has(block.id) ? { ...block, input: edits.inputs.get(block.id) } : block, ...extra];
    }
    if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") return [block];
    const result = edits.results.get(block.tool_use_id);
    const extra = (edits.extraResults.get(block.tool_use_id) ?? []).map(toolResult);
    if (result === undefined && extra.length === 0) return [block];
    changed = true;
    if (result === undefined) return [block, ...extra];
    const { is_error: _, ...rest } = block;
    return [{ ...rest, ...toolResult(result), type: "tool_result" }, ...extra];
  });
  return changed ? { ...message, content } : message;
}

function toolUse(call: HiddenRoundEdit["calls"][number]): Item {
  return { type: "tool_use", id: call.id, name: call.name, input: call.input ?? {} };
}

function toolResult(result: EditedResult): Item {
  return { type: "tool_result", tool_use_id: result.id, content: resultText(result.output), ...(result.isError ? { is_error: true } : {}) };
}

function round(round: HiddenRoundEdit): Item[] {
  return [
    { role: "assistant", content: [...(round.text === "" ? [] : [{ type: "text", text: round.text }]), ...round.calls.map(toolUse)] },
    { role: "user", content: round.results.map(toolResult) },
  ];
}
