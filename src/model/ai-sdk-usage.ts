import type { LanguageModelV2Usage, LanguageModelV3FinishReason, LanguageModelV3Usage } from "@ai-sdk/provider";
import type { ResolvedReply } from "./types.js";

/** Usage in the AI SDK's specification v3 shape. */
export function usageV3(usage: ResolvedReply["usage"]): LanguageModelV3Usage {
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: 0 },
  };
}

/** Usage in the AI SDK's specification v2 shape. */
export function usageV2(usage: ResolvedReply["usage"]): LanguageModelV2Usage {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens };
}

/** `tool-calls` when the reply calls tools, else `stop`. */
export function finishReasonV3(reply: ResolvedReply): LanguageModelV3FinishReason {
  const unified = reply.toolCalls.length > 0 ? "tool-calls" : "stop";
  return { unified, raw: unified };
}
