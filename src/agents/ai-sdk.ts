/** @module tooltrace/ai-sdk */
import { generateText, stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import type { Agent } from "../session/types.js";

/** Options of {@link aiSdkAgent}. */
export interface AiSdkAgentOptions {
  /** Any AI SDK language model: a provider's model, or tooltrace's `mockModel()`. */
  readonly model: LanguageModel;
  /** The agent's tools: pass the same record to `createSession({ tools })` so its executors are patched. */
  readonly tools?: ToolSet;
  readonly system?: string;
  /** The most model steps a turn may take (tool calls and their results count as one step). Default 10. */
  readonly maxSteps?: number;
  /** `generate` runs `generateText`, `stream` runs `streamText` and drains it. Default `generate`. */
  readonly mode?: "generate" | "stream";
}

/**
 * An agent that runs an AI SDK tool loop per turn over the session's history.
 *
 * @example
 * ```ts
 * const session = createSession({ agent: aiSdkAgent({ model, tools, system }), tools, stubs });
 * ```
 */
export function aiSdkAgent(options: AiSdkAgentOptions): Agent<ModelMessage> {
  const { model, tools, system, maxSteps = 10, mode = "generate" } = options;
  return async (message, { history, signal }) => {
    const user: ModelMessage = { role: "user", content: message };
    const request = {
      model,
      ...(tools ? { tools } : {}),
      ...(system !== undefined ? { system } : {}),
      messages: [...history, user],
      stopWhen: stepCountIs(maxSteps),
      abortSignal: signal,
    };
    const result = mode === "stream" ? await drain(streamText(request)) : await generateText(request);
    return {
      text: result.text,
      assistantTexts: result.steps.map((step) => step.text).filter((text) => text !== ""),
      // ai@7 keeps only the last step in `response.messages`; `responseMessages` holds them all.
      messages: [user, ...responseMessages(result)],
      usage: {
        inputTokens: result.totalUsage.inputTokens ?? 0,
        outputTokens: result.totalUsage.outputTokens ?? 0,
        totalTokens: result.totalUsage.totalTokens ?? 0,
      },
    };
  };
}

async function drain(result: ReturnType<typeof streamText>) {
  let failure: unknown;
  for await (const part of result.fullStream) {
    if (part.type === "error") failure ??= part.error;
  }
  if (failure !== undefined) throw failure;
  const all = (result as unknown as { responseMessages?: PromiseLike<ModelMessage[]> }).responseMessages;
  const [text, steps, response, totalUsage, messages] = await Promise.all([
    result.text,
    result.steps,
    result.response,
    result.totalUsage,
    all,
  ]);
  return { text, steps, response, totalUsage, ...(messages ? { responseMessages: messages } : {}) };
}

/** Every message the turn added: `responseMessages` (ai@7) or `response.messages` (ai@5 and @6). */
function responseMessages(result: { response: { messages: ModelMessage[] } }): ModelMessage[] {
  return (result as { responseMessages?: ModelMessage[] }).responseMessages ?? result.response.messages;
}
