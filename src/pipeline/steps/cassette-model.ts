import type { Cassette } from "../../cassettes/cassette.js";
import type { MockModelRequest, ResolvedReply } from "../../model/types.js";
import { fingerprintChanges, modelFingerprint } from "../../cassettes/fingerprint.js";
import { noteForCheck, reportStale } from "../../cassettes/stale.js";
import { toTraceError } from "../../trace/to-trace-error.js";
import type { ModelCall } from "../../trace/types.js";
import { UpstreamError } from "../../wire/upstream.js";
import type { StepContext } from "../types.js";

/** Replays the next recorded exchange with the real model, checking it was recorded for the same user message. */
export function replayModel(cassette: Cassette, ctx: StepContext, next: () => unknown): unknown {
  const found = cassette.nextModel();
  if (found === "live") return next();
  const request = ctx.input as MockModelRequest;
  const { entry, index } = found;
  if (entry === undefined) {
    const last = cassette.modelEntries > 0 ? ` The last recorded one is exchange ${cassette.modelEntries}.` : "";
    return ctx.reject(
      `cassette ${cassette.path} holds ${cassette.modelEntries} exchange${cassette.modelEntries === 1 ? "" : "s"} with the model, and the agent started exchange ${index + 1} (${ctx.name}, last user message ${JSON.stringify(asRecorded(cassette, request.lastUserMessage))}).${last} Record it again: TOOLTRACE_CASSETTE=record.`,
      { kind: "strict" },
    );
  }
  const source = { kind: "cassette", entry: index } as const;
  // The recording was redacted when it was written: the live message is compared as it would have been recorded.
  const live = asRecorded(cassette, request.lastUserMessage);
  const current = modelFingerprint((ctx.record as ModelCall).model, request);
  // A cache whose first exchange was for another request: recorded anew, from this exchange on.
  const changed =
    entry.lastUserMessage !== live ||
    (entry.fingerprint !== undefined && fingerprintChanges(entry.fingerprint, current.fingerprint).length > 0);
  if (changed && index === 0 && cassette.recordAnew()) return recordModel(cassette, ctx, next());
  if (entry.lastUserMessage !== live) {
    noteForCheck({
      cassette: cassette.path,
      entry: `model exchange ${index + 1}`,
      changes: [`- last user message: ${JSON.stringify(entry.lastUserMessage)}\n+ last user message: ${JSON.stringify(live)}`],
      rerecord: cassette.rerecord,
    });
    return ctx.reject(
      `cassette ${cassette.path}: model exchange ${index + 1} was recorded for the user message ${JSON.stringify(entry.lastUserMessage)}, and the agent now sends ${JSON.stringify(live)}. Record it again: TOOLTRACE_CASSETTE=record.`,
      source,
    );
  }
  if (entry.fingerprint !== undefined) {
    const changes = fingerprintChanges(entry.fingerprint, current.fingerprint, {
      recorded: (digest) => cassette.source(digest),
      // Today's text as the cassette would have kept it: redacted by its rules.
      current: (digest) => {
        const text = current.sources[digest];
        return text === undefined ? undefined : cassette.keptText(text);
      },
    });
    if (changes.length > 0)
      reportStale(
        { cassette: cassette.path, entry: `model exchange ${index + 1}`, changes, rerecord: cassette.rerecord },
        cassette.stale,
        (text) => ctx.violation(text),
      );
  }
  if (entry.error !== undefined) {
    const error =
      entry.error.status !== undefined
        ? new UpstreamError(entry.error.status, entry.error.body ?? "", "application/json")
        : Object.assign(new Error(entry.error.message), { name: entry.error.name });
    return ctx.fail(error, source);
  }
  if (entry.reply === undefined)
    return ctx.reject(`cassette ${cassette.path}: model exchange ${index + 1} has neither a reply nor an error.`, source);
  const { reasoning, text, toolCalls, usage } = entry.reply;
  return ctx.answer({ ...(reasoning ? { reasoning } : {}), text, toolCalls, usage }, source);
}

/** Records an exchange with the real model (the reply, or the upstream's error), in the order exchanges start. */
export function recordModel(cassette: Cassette, ctx: StepContext, result: unknown): unknown {
  const request = ctx.input as MockModelRequest;
  const fill = cassette.reserveModel();
  const { provider, model } = ctx.record as ModelCall;
  const { fingerprint, sources } = modelFingerprint(model, request);
  cassette.noteSources(sources);
  const base = { api: provider, model, lastUserMessage: request.lastUserMessage, fingerprint };
  return Promise.resolve(result).then(
    (value: unknown) => {
      const reply = value as ResolvedReply;
      fill({
        ...base,
        reply: {
          // Opaque signatures and encrypted content: kept byte for byte, so a replayed prefix can go live.
          ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
          text: reply.text,
          toolCalls: reply.toolCalls.map((call) => ({ id: call.id, name: call.name, input: cassette.redactor.value(call.input) })),
          usage: reply.usage,
        },
      });
      return value;
    },
    (error: unknown) => {
      const { name, message } = toTraceError(error);
      // Messages carry what the upstream said and where it was: redacted like any body.
      if (error instanceof UpstreamError) {
        const body = cassette.redactor.body(error.body);
        fill({
          ...base,
          error: { name, message: new UpstreamError(error.status, body, error.contentType).message, status: error.status, body },
        });
      } else {
        fill({ ...base, error: { name, message: cassette.redactor.text(message) } });
      }
      throw error;
    },
  );
}

/** A live message as the cassette would have recorded it (redacted by its rules). */
function asRecorded<T>(cassette: Cassette, message: T): T {
  return (typeof message === "string" ? cassette.redactor.text(message) : message) as T;
}
