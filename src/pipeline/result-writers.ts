import type { ResultWriter } from "./chain-call.js";
import type { ResolvedReply } from "../model/types.js";
import type { HttpCall, ModelCall, ToolCall } from "../trace/types.js";
import { ZERO_USAGE } from "../trace/usage.js";

/** A tool's result is what the agent saw. */
export const writeToolResult: ResultWriter<ToolCall> = (record, output) => {
  record.output = output;
};

/**
 * A model's result as the catchers need it, whatever answered: the mock model's resolved reply, or what a
 * step answered with (a string is text; missing tool calls and usage are empty).
 */
export function toResolvedReply(value: unknown): ResolvedReply {
  if (typeof value === "string") return { text: value, toolCalls: [], usage: ZERO_USAGE };
  const reply = (value ?? {}) as Partial<ResolvedReply>;
  // Already whole: the same object goes back (a real model's reply is known by it, see `rawReplyOf`).
  if (typeof reply.text === "string" && Array.isArray(reply.toolCalls) && reply.usage !== undefined) return reply as ResolvedReply;
  return {
    text: typeof reply.text === "string" ? reply.text : "",
    toolCalls: Array.isArray(reply.toolCalls) ? reply.toolCalls : [],
    usage: reply.usage ?? ZERO_USAGE,
  };
}

/** A model's result is its resolved reply: text, tool calls and usage. */
export const writeModelResult: ResultWriter<ModelCall> = (record, reply) => {
  const resolved = toResolvedReply(reply);
  record.reply = { text: resolved.text, toolCalls: resolved.toolCalls };
  record.usage = resolved.usage;
};

/** An HTTP exchange's result is the response; the trace keeps its status. */
export const writeHttpResult: ResultWriter<HttpCall> = (record, response) => {
  if (response instanceof Response) record.statusCode = response.status;
};
