import { currentCallContext } from "../intercept/call-context.js";
import { toTraceError } from "../trace/to-trace-error.js";
import type { ModelCall } from "../trace/types.js";
import type { Responder } from "./responder.js";
import type { MockModelRequest, ResolvedReply } from "./types.js";

/** Where a model call came from, for its trace record. */
export interface ModelCallOrigin {
  readonly provider: string;
  readonly model: string;
  readonly streamed: boolean;
}

/**
 * Asks the responder for a reply and records the call on the current turn (when a session turn is
 * running in this async context), failed calls included.
 */
export async function respondAndRecord(responder: Responder, request: MockModelRequest, origin: ModelCallOrigin): Promise<ResolvedReply> {
  const context = currentCallContext();
  const startedAt = Date.now();
  const started = performance.now();
  try {
    const reply = await responder.respond(request);
    context?.recordModelCall({ ...origin, request, reply: { text: reply.text, toolCalls: reply.toolCalls }, usage: reply.usage, startedAt, durationMs: performance.now() - started });
    return reply;
  } catch (error) {
    const failed: ModelCall = {
      ...origin,
      request,
      reply: { text: "", toolCalls: [] },
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      startedAt,
      durationMs: performance.now() - started,
      error: toTraceError(error),
    };
    context?.recordModelCall(failed);
    throw error;
  }
}
