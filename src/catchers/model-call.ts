import type { Responder } from "../model/responder.js";
import type { ResolvedReply } from "../model/types.js";
import type { CaughtModelCall, TurnContext } from "../pipeline/caught.js";
import type { ModelCallHandle } from "../pipeline/pipeline.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import type { Terminal } from "../pipeline/types.js";
import { detachedModelCall } from "../trace/detached.js";
import { toTraceError } from "../trace/to-trace-error.js";
import type { ModelCall } from "../trace/types.js";
import { ZERO_USAGE } from "../trace/usage.js";

const MOCK_MODEL = { kind: "mock-model" } as const;
const REAL_MODEL = { kind: "real" } as const;

/** What answers a model call at the end of the chain: the mock model, or with `live` the real one. */
export interface ModelTerminalOptions {
  /** Shapes derived tool-call ids the way the provider does (`toolu_` for Anthropic). */
  readonly idPrefix?: string;
  /** The real model (the session's upstream): a live call, which the cassette records and strict mode refuses. */
  readonly live?: (request: CaughtModelCall["request"]) => Promise<ResolvedReply>;
}

/** The end of a model call's chain in `context`: the mock model `responder`, or the real model. */
export function modelTerminal(responder: Responder, context: TurnContext, options: ModelTerminalOptions = {}): Terminal {
  const { live, idPrefix } = options;
  if (live !== undefined) return { source: REAL_MODEL, live: true, run: (request) => live(request as CaughtModelCall["request"]) };
  return {
    source: MOCK_MODEL,
    live: false,
    run: (request, progress) =>
      responder.respond(request as CaughtModelCall["request"], idPrefix, (step) => progress.step(step), context.pipeline.nextModelSeed()),
    ...(typeof responder.peek === "function"
      ? {
          peek: (request: unknown, progress: { step(n: number): void }) => {
            progress.step(responder.calls + 1);
            return responder.peek(request as CaughtModelCall["request"], idPrefix, context.pipeline.nextModelSeed(true));
          },
        }
      : {}),
  };
}

/**
 * Hands a model call to the pipeline of the turn running in `context` (by default the current async
 * context), with the mock model (or the real one) at the end of its chain. Outside a session the mock model
 * answers directly.
 */
export function catchModelCall(
  responder: Responder,
  caught: Omit<CaughtModelCall, "kind">,
  options: ModelTerminalOptions & { readonly context?: TurnContext | undefined } = {},
): Promise<ResolvedReply> {
  const context = options.context ?? currentTurnContext();
  // No session records it: the mock model answers, and nobody keeps a record.
  if (context === undefined) return responder.respond(caught.request, options.idPrefix);
  return context.pipeline.model(context, { kind: "model", ...caught }, modelTerminal(responder, context, options));
}

/** Opens a model call in the pipeline of `context`, for a catcher that also says what its client was sent (the wire). */
export function openModelCall(context: TurnContext, caught: Omit<CaughtModelCall, "kind">): ModelCallHandle {
  return context.pipeline.openModel(context, { kind: "model", ...caught });
}

/** A model call with no session (the wire mock on its own): the mock model answers, and the finished record comes with the reply. */
export function answerOutsideSession(
  responder: Responder,
  caught: Omit<CaughtModelCall, "kind">,
  idPrefix: string | undefined,
): { readonly reply: Promise<ResolvedReply>; readonly record: Promise<ModelCall> } {
  const startedAt = Date.now();
  const started = performance.now();
  let step: number | undefined;
  const record = (
    status: "completed" | "failed",
    reply: ModelCall["reply"],
    usage: ModelCall["usage"],
    error?: ModelCall["error"],
  ): ModelCall =>
    detachedModelCall({
      startedAt,
      durationMs: performance.now() - started,
      answeredBy: MOCK_MODEL,
      provider: caught.provider,
      model: caught.model,
      request: caught.request,
      streamed: caught.streamed,
      step,
      http: caught.http,
      status,
      reply,
      usage,
      error,
    });
  const reply = responder.respond(caught.request, idPrefix, (n) => {
    step = n;
  });
  return {
    reply,
    record: reply.then(
      (answered) => record("completed", { text: answered.text, toolCalls: answered.toolCalls }, answered.usage),
      (error: unknown) => record("failed", { text: "", toolCalls: [] }, ZERO_USAGE, toTraceError(error)),
    ),
  };
}
