import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV2Content,
  LanguageModelV2StreamPart,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { finishReasonV3, usageV2, usageV3 } from "../model/ai-sdk-usage.js";
import { chunkText } from "../model/chunk-text.js";
import { fromAiSdkPrompt } from "../model/from-ai-sdk-prompt.js";
import { createResponder, type Responder } from "../model/responder.js";
import type { MockModelInput, MockModelOptions, ResolvedReply } from "../model/types.js";
import { catchModelCall } from "./model-call.js";
import { cutParts, faultAsApiError, pacedParts } from "./ai-sdk-faults.js";
import { injectedFaultOf } from "../faults/fault-error.js";

/** Options of a mock model served to `ai@5`, which speaks specification v2. */
export interface MockModelV2Options extends MockModelOptions {
  readonly specificationVersion: "v2";
}

/**
 * Options of a mock model in specification v4 (`ai@7`, `@ai-sdk/provider@4`). ai@7 also accepts the default
 * v3 model; v4 is for code that checks `specificationVersion` or types models as `LanguageModelV4`.
 */
export interface MockModelV4Options extends MockModelOptions {
  readonly specificationVersion: "v4";
}

/**
 * A deterministic AI SDK language model. `mockModel()` answers "Mock response"; a string is a static reply;
 * a function sees the request (messages, user messages, tools, tool results) and returns text and tool
 * calls; an array scripts one reply per call. Every call is recorded on the current turn's `modelCalls`.
 *
 * @example
 * ```ts
 * const model = mockModel(({ toolResults }) =>
 *   toolResults.length === 0 ? { toolCalls: [{ name: "list_tasks" }] } : `You have ${toolResults[0].output.tasks.length} tasks.`,
 * );
 * await generateText({ model, tools, prompt: "What tasks do I have?", stopWhen: stepCountIs(5) });
 * ```
 */
export function mockModel(input?: MockModelInput): LanguageModelV3;
/**
 * The same model for `ai@5` (specification v2). ai@5 ships its own copy of the provider types; name its
 * model type so the result fits it exactly: `mockModel<LanguageModel>({ specificationVersion: "v2", ... })`.
 */
export function mockModel<TModel = LanguageModelV2>(input: MockModelV2Options): TModel;
/**
 * The same model in specification v4 (`ai@7`). tooltrace's own types come from `@ai-sdk/provider@3`; name
 * ai@7's type so the result fits it: `mockModel<LanguageModelV4>({ specificationVersion: "v4", ... })`.
 * v4 changed nothing this model produces: it is the v3 model under its new version.
 */
export function mockModel<TModel = unknown>(input: MockModelV4Options): TModel;
export function mockModel(input?: MockModelInput | MockModelV2Options | MockModelV4Options): unknown {
  const responder = createResponder(input);
  const version =
    input !== null && typeof input === "object" && !Array.isArray(input)
      ? (input as { specificationVersion?: unknown }).specificationVersion
      : undefined;
  if (version === "v2") return modelV2(responder);
  if (version === "v4") return { ...modelV3(responder), specificationVersion: "v4" };
  return modelV3(responder);
}

async function reply(
  responder: Responder,
  options: LanguageModelV3CallOptions | LanguageModelV2CallOptions,
  streamed: boolean,
): Promise<ResolvedReply> {
  const request = fromAiSdkPrompt(
    options.prompt as Parameters<typeof fromAiSdkPrompt>[0],
    options.tools as Parameters<typeof fromAiSdkPrompt>[1],
  );
  return catchModelCall(responder, { provider: responder.provider, model: responder.modelId, streamed, request });
}

/** A fault as the provider reports it (see {@link faultAsApiError}). */
function asProviderError(responder: Responder, error: unknown): unknown {
  const fault = injectedFaultOf(error);
  return fault === undefined ? error : faultAsApiError(fault, `mock://${responder.provider}/${responder.modelId}`);
}

function content(resolved: ResolvedReply): (LanguageModelV3Content & LanguageModelV2Content)[] {
  const parts: (LanguageModelV3Content & LanguageModelV2Content)[] = resolved.text !== "" ? [{ type: "text", text: resolved.text }] : [];
  for (const call of resolved.toolCalls)
    parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) });
  return parts;
}

/** The stream parts a real provider emits, in its order: start, text, tool inputs, tool calls, finish. */
function streamParts(resolved: ResolvedReply): (LanguageModelV3StreamPart & LanguageModelV2StreamPart)[] {
  const parts: (LanguageModelV3StreamPart & LanguageModelV2StreamPart)[] = [{ type: "stream-start", warnings: [] }];
  if (resolved.text !== "") {
    parts.push({ type: "text-start", id: "text-0" });
    for (const delta of chunkText(resolved.text)) parts.push({ type: "text-delta", id: "text-0", delta });
    parts.push({ type: "text-end", id: "text-0" });
  }
  for (const call of resolved.toolCalls) {
    const input = JSON.stringify(call.input);
    parts.push({ type: "tool-input-start", id: call.id, toolName: call.name });
    parts.push({ type: "tool-input-delta", id: call.id, delta: input });
    parts.push({ type: "tool-input-end", id: call.id });
    parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input });
  }
  return parts;
}

/** How one specification version writes a reply's finish reason and usage; the rest of the model is shared. */
interface FinishShape<TFinish, TUsage> {
  readonly finishReason: (resolved: ResolvedReply) => TFinish;
  readonly usage: (usage: ResolvedReply["usage"]) => TUsage;
}

function model<TVersion extends string, TFinish, TUsage>(
  responder: Responder,
  specificationVersion: TVersion,
  shape: FinishShape<TFinish, TUsage>,
) {
  const finish = (resolved: ResolvedReply) => ({ finishReason: shape.finishReason(resolved), usage: shape.usage(resolved.usage) });
  return {
    specificationVersion,
    provider: responder.provider,
    modelId: responder.modelId,
    supportedUrls: {},
    async doGenerate(options: LanguageModelV3CallOptions | LanguageModelV2CallOptions) {
      const resolved = await reply(responder, options, false).catch((error: unknown) => {
        throw asProviderError(responder, error);
      });
      return { content: content(resolved), finishReason: shape.finishReason(resolved), usage: shape.usage(resolved.usage), warnings: [] };
    },
    async doStream(options: LanguageModelV3CallOptions | LanguageModelV2CallOptions) {
      const allParts = (resolved: ResolvedReply) => [...streamParts(resolved), { type: "finish" as const, ...finish(resolved) }];
      let resolved: ResolvedReply;
      try {
        resolved = await reply(responder, options, true);
      } catch (error) {
        // A stream_cut or malformed fault: part of the answer arrives, then the stream breaks.
        const fault = injectedFaultOf(error);
        if (fault?.answer === undefined) throw asProviderError(responder, error);
        return { stream: cutParts(allParts(fault.answer as ResolvedReply), fault, asProviderError(responder, error)) };
      }
      return { stream: pacedParts(resolved, allParts(resolved)) };
    },
  };
}

function modelV3(responder: Responder): LanguageModelV3 {
  return model(responder, "v3", { finishReason: finishReasonV3, usage: usageV3 });
}

function modelV2(responder: Responder): LanguageModelV2 {
  return model(responder, "v2", { finishReason: (resolved) => finishReasonV3(resolved).unified, usage: usageV2 });
}
