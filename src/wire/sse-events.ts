import type { ReasoningPart, ResolvedReply } from "../model/types.js";

export type Json = Record<string, unknown>;
export type ReplyToolCall = ResolvedReply["toolCalls"][number];

/** The JSON `data:` of each server-sent event; `[DONE]` and comments are skipped. */
export function parseEvents(body: string): Json[] {
  const events: Json[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data === "" || data === "[DONE]") continue;
    events.push(JSON.parse(data) as Json);
  }
  return events;
}

/** A decoded real reply in the mock model's shape. */
export function decodedReply(text: string, toolCalls: readonly ReplyToolCall[], inputTokens: number, outputTokens: number): ResolvedReply {
  return { text, toolCalls, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
}

/** The reply with the provider's reasoning parts, when it sent any. */
export function withReasoning(reply: ResolvedReply, reasoning: readonly ReasoningPart[]): ResolvedReply {
  return reasoning.length === 0 ? reply : { reasoning, ...reply };
}
