import { TooltraceError } from "../exits/errors.js";
import { estimateTokens, promptCharacters } from "./estimate-usage.js";
import type { MockModelReply, MockModelRequest, MockModelToolCall, ResolvedReply } from "./types.js";

/**
 * Validates a responder's reply against the request and fills in what it left out: tool-call ids that are
 * the same on every run, and a usage estimate.
 */
export function resolveReply(reply: MockModelReply, request: MockModelRequest, callNumber: number, idPrefix = "call_"): ResolvedReply {
  const response = typeof reply === "string" ? { text: reply } : reply;
  if (response === null || typeof response !== "object") {
    throw new TooltraceError(
      `mock model call ${callNumber}: the responder returned ${String(reply)}; return a string or { text?, toolCalls?, usage? }.`,
    );
  }
  const toolCalls = response.toolCalls ?? [];
  if (response.text === undefined && toolCalls.length === 0) {
    throw new TooltraceError(
      `mock model call ${callNumber}: the reply has neither text nor tool calls. Return { text: "" } for an empty reply.`,
    );
  }
  if (response.text !== undefined && typeof response.text !== "string") {
    throw new TooltraceError(`mock model call ${callNumber}: \`text\` must be a string.`);
  }
  // Derived ids count every call already in the conversation, answered or not (a call awaiting approval has
  // no result yet), and skip any id already taken there or given explicitly in this reply. Worked out only
  // when a call needs one.
  let deriveId: ((position: number) => string) | undefined;
  const idFor = (position: number): string => {
    deriveId ??= idDeriver(request, toolCalls, idPrefix);
    return deriveId(position);
  };
  const resolvedCalls = toolCalls.map((call, i) => {
    if (typeof call?.name !== "string") throw new TooltraceError(`mock model call ${callNumber}: tool call ${i} needs a \`name\`.`);
    if (!request.tools.some((tool) => tool.name === call.name)) {
      const list = request.tools.map((tool) => tool.name).join(", ") || "no tools";
      throw new TooltraceError(
        `mock model call ${callNumber}: the responder called tool "${call.name}", but the agent offered ${list}. Call one of those, or offer "${call.name}" to the model.`,
      );
    }
    return { id: call.id ?? idFor(i), name: call.name, input: call.input ?? {} };
  });
  const text = response.text ?? "";
  const inputTokens = response.usage?.inputTokens ?? estimateTokens(promptCharacters(request));
  const outputTokens = response.usage?.outputTokens ?? estimateTokens(replyCharacters(text, resolvedCalls));
  const usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  return response.reasoning === undefined
    ? { text, toolCalls: resolvedCalls, usage }
    : { reasoning: response.reasoning, text, toolCalls: resolvedCalls, usage };
}

/** Ids `call_<n>` (in the provider's prefix) numbered after every call already in the conversation, skipping those taken. */
function idDeriver(request: MockModelRequest, toolCalls: readonly MockModelToolCall[], idPrefix: string): (position: number) => string {
  const taken = new Set<string>();
  for (const message of request.messages) for (const call of message.toolCalls ?? []) taken.add(call.id);
  for (const result of request.toolResults) taken.add(result.id);
  for (const call of toolCalls) if (typeof call?.id === "string") taken.add(call.id);
  const prior = Math.max(
    request.toolResults.length,
    request.messages.reduce((sum, message) => sum + (message.toolCalls?.length ?? 0), 0),
  );
  return (position) => {
    let n = prior + position + 1;
    while (taken.has(`${idPrefix}${n}`)) n += 1;
    const id = `${idPrefix}${n}`;
    taken.add(id);
    return id;
  };
}

function replyCharacters(text: string, calls: readonly { readonly name: string; readonly input: unknown }[]): number {
  return text.length + calls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.input).length, 0);
}
