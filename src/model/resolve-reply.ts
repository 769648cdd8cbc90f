import { TooltraceError } from "../base/errors.js";
import { estimateTokens, promptCharacters } from "./estimate-usage.js";
import type { MockModelReply, MockModelRequest, ResolvedReply } from "./types.js";

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
  const offered = new Set(request.tools.map((tool) => tool.name));
  // Derived ids count every call already in the conversation, answered or not (a call awaiting approval has
  // no result yet), and skip any id already taken there or given explicitly in this reply.
  const taken = new Set<string>();
  for (const message of request.messages) for (const call of message.toolCalls ?? []) taken.add(call.id);
  for (const result of request.toolResults) taken.add(result.id);
  for (const call of toolCalls) if (typeof call?.id === "string") taken.add(call.id);
  const prior = Math.max(
    request.toolResults.length,
    request.messages.reduce((sum, message) => sum + (message.toolCalls?.length ?? 0), 0),
  );
  const deriveId = (position: number) => {
    let n = prior + position + 1;
    while (taken.has(`${idPrefix}${n}`)) n += 1;
    const id = `${idPrefix}${n}`;
    taken.add(id);
    return id;
  };
  const resolvedCalls = toolCalls.map((call, i) => {
    if (typeof call?.name !== "string") throw new TooltraceError(`mock model call ${callNumber}: tool call ${i} needs a \`name\`.`);
    if (!offered.has(call.name)) {
      const list = [...offered].join(", ") || "no tools";
      throw new TooltraceError(
        `mock model call ${callNumber}: the responder called tool "${call.name}", but the agent offered ${list}. Call one of those, or offer "${call.name}" to the model.`,
      );
    }
    return { id: call.id ?? deriveId(i), name: call.name, input: call.input ?? {} };
  });
  const text = response.text ?? "";
  const replyCharacters = text.length + resolvedCalls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.input).length, 0);
  const inputTokens = response.usage?.inputTokens ?? estimateTokens(promptCharacters(request));
  const outputTokens = response.usage?.outputTokens ?? estimateTokens(replyCharacters);
  return { text, toolCalls: resolvedCalls, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
}
