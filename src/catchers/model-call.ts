import type { CaughtModelCall, TurnContext } from "../pipeline/caught.js";
import type { Terminal } from "../pipeline/types.js";
import type { Responder } from "../model/responder.js";
import type { ResolvedReply } from "../model/types.js";
import { toTraceError } from "../trace/to-trace-error.js";
import type { ModelCall } from "../trace/types.js";
import { ZERO_USAGE } from "../trace/usage.js";
import { currentTurnContext } from "./turn-context.js";

const MOCK_MODEL = { kind: "mock-model" } as const;
const REAL_MODEL = { kind: "real" } as const;

/**
 * Hands a model call to the session running in `context` (by default the current async context), with
 * the mock model at the end of its chain. Outside a session the mock model answers directly; `onRecord`
 * still gets a record. With `live` (the session has an upstream), the real model is at the end of the chain
 * instead: a live call, which the cassette records and strict mode refuses.
 */
export function catchModelCall(
  responder: Responder,
  caught: Omit<CaughtModelCall, "kind">,
  idPrefix?: string,
  context: TurnContext | undefined = currentTurnContext(),
  live?: (request: CaughtModelCall["request"]) => Promise<ResolvedReply>,
): Promise<ResolvedReply> {
  const terminal: Terminal =
    live !== undefined && context !== undefined
      ? { source: REAL_MODEL, live: true, run: (request) => live(request as CaughtModelCall["request"]) }
      : {
          source: MOCK_MODEL,
          live: false,
          run: (request, progress) =>
            responder.respond(
              request as CaughtModelCall["request"],
              idPrefix,
              (step) => progress.step(step),
              context?.host.nextModelSeed?.(),
            ),
        };
  if (context !== undefined)
    return Promise.resolve(context.host.handle(context, { kind: "model", ...caught }, terminal) as Promise<ResolvedReply>);
  return answerOutsideSession(responder, caught, idPrefix);
}

async function answerOutsideSession(
  responder: Responder,
  caught: Omit<CaughtModelCall, "kind">,
  idPrefix: string | undefined,
): Promise<ResolvedReply> {
  const startedAt = Date.now();
  const started = performance.now();
  let step: number | undefined;
  const record = (fields: Pick<ModelCall, "status" | "reply" | "usage"> & { error?: ModelCall["error"] }): ModelCall => {
    const durationMs = performance.now() - started;
    return {
      seq: 0,
      kind: "model",
      turnIndex: -1,
      startedAt,
      start: 0,
      end: durationMs,
      durationMs,
      answeredBy: MOCK_MODEL,
      provider: caught.provider,
      model: caught.model,
      path: [],
      request: caught.request,
      streamed: caught.streamed,
      ...(step !== undefined ? { step } : {}),
      ...(caught.http ? { http: caught.http } : {}),
      ...fields,
    };
  };
  try {
    const reply = await responder.respond(caught.request, idPrefix, (n) => (step = n));
    caught.onRecord?.(record({ status: "completed", reply: { text: reply.text, toolCalls: reply.toolCalls }, usage: reply.usage }));
    return reply;
  } catch (error) {
    caught.onRecord?.(record({ status: "failed", reply: { text: "", toolCalls: [] }, usage: ZERO_USAGE, error: toTraceError(error) }));
    throw error;
  }
}
