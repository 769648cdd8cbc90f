import {
  argumentsOf,
  type ConversationEditor,
  type EditedResult,
  type HiddenRoundEdit,
  type Item,
  isItem,
  type WireEdits,
} from "./request-edits.js";

/**
 * Gemini's `contents`: `functionCall` parts of a `model` turn and `functionResponse` parts of the next by id
 * (a call with no id is left as the client sent it); a hidden round is a `model` turn and a `user` turn.
 */
export const geminiEditor: ConversationEditor = { key: "contents", patch, round };

function patch(content: Item, edits: WireEdits): Item | Item[] {
  if (!Array.isArray(content.parts)) return content;
  let changed = false;
  const parts = content.parts.flatMap((part: unknown) => {
    if (!isItem(part)) return [part];
    const call = part.functionCall;
    if (isItem(call) && typeof call.id === "string") {
      const extra = (edits.extraCalls.get(call.id) ?? []).map(callPart);
      if (!edits.inputs.has(call.id) && extra.length === 0) return [part];
      changed = true;
      const input = edits.inputs.has(call.id) ? edits.inputs.get(call.id) : call.args;
      return [{ ...part, functionCall: { ...call, args: JSON.parse(argumentsOf(input)) as unknown } }, ...extra];
    }
    const response = part.functionResponse;
    if (isItem(response) && typeof response.id === "string") {
      const result = edits.results.get(response.id);
      const extra = (edits.extraResults.get(response.id) ?? []).map(responsePart);
      if (result === undefined && extra.length === 0) return [part];
      changed = true;
      return [result === undefined ? part : responsePart(result), ...extra];
    }
    return [part];
  });
  return changed ? { ...content, parts } : content;
}

function callPart(call: HiddenRoundEdit["calls"][number]): Item {
  return { functionCall: { id: call.id, name: call.name, args: call.input ?? {} } };
}

function responsePart(result: EditedResult): Item {
  const response = result.isError ? { name: result.name, error: result.output } : { name: result.name, content: result.output };
  return { functionResponse: { id: result.id, name: result.name, response } };
}

function round(round: HiddenRoundEdit): Item[] {
  return [
    { role: "model", parts: [...(round.text === "" ? [] : [{ text: round.text }]), ...round.calls.map(callPart)] },
    { role: "user", parts: round.results.map(responsePart) },
  ];
}
