import { currentCallContext } from "../intercept/call-context.js";
import { toTraceError } from "../trace/to-trace-error.js";
import { ZERO_USAGE } from "../trace/usage.js";
import type { ModelCall } from "../trace/types.js";
import type { Responder } from "./responder.js";
import type { MockModelRequest, ResolvedReply } from "./types.js";

/** Where a model call came from, for its trace record. */
export interface ModelCallOrigin {
  readonly provider: string;
  readonly model: string;
  readonly streamed: boolean;
  /** Prefix for derived tool-call ids (`call_`, `toolu_`). */
  readonly idPrefix?: string;
}

/**
 * Asks the responder for a reply and records the call on the current turn (when a session turn is
 * running in this async context), failed calls included. A responder that fails is also a violation of
 * the turn: the test fails even if the agent catches the error and carries on.
 */
export async function respondAndRecord(responder: Responder, request: MockModelRequest, { idPrefix, ...origin }: ModelCallOrigin, onCall?: (call: ModelCall) => void): Promise<ResolvedReply> {
  const context = currentCallContext();
  const record = (call: ModelCall) => {
    context?.recordModelCall(call);
    onCall?.(call);
  };
  const startedAt = Date.now();
  const started = performance.now();
  try {
    const reply = await responder.respond(request, idPrefix);
    record({ ...origin, request, reply: { text: reply.text, toolCalls: reply.toolCalls }, usage: reply.usage, startedAt, durationMs: performance.now() - started });
    return reply;
  } catch (error) {
    const failed: ModelCall = {
      ...origin,
      request,
      reply: { text: "", toolCalls: [] },
      usage: ZERO_USAGE,
      startedAt,
      durationMs: performance.now() - started,
      error: toTraceError(error),
    };
    record(failed);
    context?.recordViolation(`the mock model failed (${origin.provider}, model ${origin.model}): ${failed.error?.message ?? ""}`);
    throw error;
  }
}
