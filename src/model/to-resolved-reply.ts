import { ZERO_USAGE } from "../trace/usage.js";
import type { ResolvedReply } from "./types.js";

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
    ...(Array.isArray(reply.reasoning) ? { reasoning: reply.reasoning } : {}),
    text: typeof reply.text === "string" ? reply.text : "",
    toolCalls: Array.isArray(reply.toolCalls) ? reply.toolCalls : [],
    usage: reply.usage ?? ZERO_USAGE,
  };
}
