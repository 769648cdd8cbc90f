import { fromAiSdkPrompt } from "../model/from-ai-sdk-prompt.js";
import { parseMaybeJson } from "../model/request-view.js";
import type { ResolvedReply } from "../model/types.js";
import type { CaughtModelCall } from "../pipeline/caught.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import type { Terminal } from "../pipeline/types.js";
import type { Usage } from "../trace/types.js";
import { ZERO_USAGE } from "../trace/usage.js";

/** What the AI SDK passes a language model (specification v2 or v3), as far as the trace reads it. */
export interface ModelCallOptionsLike {
  readonly prompt: readonly unknown[];
  readonly tools?: readonly unknown[];
}

/** An AI SDK language model (specification v2 or v3): a provider's model, such as `openai("gpt-4.1")`. */
export interface LanguageModelLike {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: ModelCallOptionsLike): PromiseLike<{ readonly content: readonly unknown[]; readonly usage?: unknown }>;
  doStream(options: ModelCallOptionsLike): PromiseLike<{ readonly stream: ReadableStream<unknown> }>;
}

interface PartLike {
  readonly type?: string;
  readonly text?: string;
  readonly delta?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly usage?: unknown;
}

const REAL = { kind: "real" } as const;

/**
 * `model`, its calls recorded in the turn of the request making them (a request with a valid token); any
 * other call goes straight to `model`. The real model always answers: the trace only watches.
 */
export function traceModel<M extends LanguageModelLike>(model: M): M {
  const traced = {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls(): unknown {
      return (model as { readonly supportedUrls?: unknown }).supportedUrls;
    },
    doGenerate: (options: ModelCallOptionsLike) => generate(model, options),
    doStream: (options: ModelCallOptionsLike) => stream(model, options),
  };
  return traced as unknown as M;
}

async function generate(model: LanguageModelLike, options: ModelCallOptionsLike) {
  const context = currentTurnContext();
  if (context === undefined) return model.doGenerate(options);
  let result: Awaited<ReturnType<LanguageModelLike["doGenerate"]>> | undefined;
  const terminal: Terminal = {
    source: REAL,
    live: true,
    run: async () => {
      const answered = await model.doGenerate(options);
      result = answered;
      return replyOf(answered.content as readonly PartLike[], answered.usage);
    },
  };
  await context.pipeline.model(context, caught(model, options, false), terminal);
  return result as NonNullable<typeof result>;
}

function stream(model: LanguageModelLike, options: ModelCallOptionsLike) {
  const context = currentTurnContext();
  if (context === undefined) return model.doStream(options);
  return new Promise<Awaited<ReturnType<LanguageModelLike["doStream"]>>>((resolve, reject) => {
    const terminal: Terminal = {
      source: REAL,
      live: true,
      run: async () => {
        const opened = await model.doStream(options);
        const watched = watchStream(opened.stream);
        resolve({ ...opened, stream: watched.stream });
        return watched.reply;
      },
    };
    // Once the stream is handed over, its failure reaches the caller through the stream; before, here.
    context.pipeline.model(context, caught(model, options, true), terminal).catch(reject);
  });
}

function caught(model: LanguageModelLike, options: ModelCallOptionsLike, streamed: boolean): CaughtModelCall {
  const request = fromAiSdkPrompt(
    options.prompt as Parameters<typeof fromAiSdkPrompt>[0],
    options.tools as Parameters<typeof fromAiSdkPrompt>[1],
  );
  return { kind: "model", provider: model.provider, model: model.modelId, streamed, request };
}

/** The stream as it came, and the reply it adds up to once read to its end. */
function watchStream(source: ReadableStream<unknown>): { stream: ReadableStream<unknown>; reply: Promise<ResolvedReply> } {
  const parts: PartLike[] = [];
  let settle: (reply: ResolvedReply) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const reply = new Promise<ResolvedReply>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const finished = () => settle(replyOf(parts, parts.findLast((part) => part.type === "finish")?.usage));
  const reader = source.getReader();
  const stream = new ReadableStream<unknown>({
    pull: (controller) =>
      reader.read().then(
        (chunk) => {
          if (chunk.done) {
            controller.close();
            return finished();
          }
          parts.push(chunk.value as PartLike);
          controller.enqueue(chunk.value);
        },
        (error: unknown) => {
          controller.error(error);
          fail(error);
        },
      ),
    cancel: (reason) => {
      finished();
      return reader.cancel(reason);
    },
  });
  return { stream, reply };
}

/** The reply a model's content parts (or stream parts) say: its text, its tool calls, its usage. */
function replyOf(parts: readonly PartLike[], usage: unknown): ResolvedReply {
  let text = "";
  const toolCalls: { id: string; name: string; input: unknown }[] = [];
  for (const part of parts) {
    if (part.type === "text" && typeof part.text === "string") text += part.text;
    if (part.type === "text-delta" && typeof part.delta === "string") text += part.delta;
    if (part.type === "tool-call") {
      const input = typeof part.input === "string" ? parseMaybeJson(part.input) : part.input;
      toolCalls.push({ id: String(part.toolCallId ?? ""), name: String(part.toolName ?? ""), input });
    }
  }
  return { text, toolCalls, usage: usageOf(usage) };
}

/** Usage in either specification: v3 counts `{ total }` objects, v2 plain numbers. */
function usageOf(usage: unknown): Usage {
  if (usage === null || typeof usage !== "object") return ZERO_USAGE;
  const { inputTokens, outputTokens, totalTokens } = usage as Record<string, unknown>;
  const count = (value: unknown) => {
    const n = value !== null && typeof value === "object" ? (value as { total?: unknown }).total : value;
    return typeof n === "number" && Number.isFinite(n) ? n : 0;
  };
  const input = count(inputTokens);
  const output = count(outputTokens);
  return { inputTokens: input, outputTokens: output, totalTokens: typeof totalTokens === "number" ? totalTokens : input + output };
}
