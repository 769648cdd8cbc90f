import { isDeepStrictEqual } from "node:util";
import type { Step, StepContext } from "../types.js";
import { isThenable } from "../chain-call.js";
import type { Cassette } from "../../cassettes/cassette.js";
import type { HttpRequestView } from "./http-mock-step.js";
import { suggestName } from "../../stubs/suggest.js";
import { toTraceError } from "../../trace/to-trace-error.js";
import type { MockModelRequest, ResolvedReply } from "../../model/types.js";
import type { ModelCall } from "../../trace/types.js";
import { UpstreamError } from "../../wire/upstream.js";

/**
 * The cassette's place in the chain, after the stubs and HTTP mocks (what they answer is never recorded) and
 * before strict mode and the real thing. Replaying, it answers tool calls and HTTP exchanges from the
 * cassette and refuses anything it does not hold; recording, it lets the real thing run and keeps what it
 * returned. Model calls the mock model answers are not live and pass through; those to the real model (the
 * session's `upstream`) are recorded and replayed in order. Replaying a prefix (`upTo`), everything after
 * the first `upTo` model exchanges runs live.
 */
export function cassetteStep(cassette: Cassette): Step {
  return {
    name: "cassette",
    run: (ctx, next) => {
      // A handoff or a subagent's delegation is routing, not a tool's result: what it runs is caught in turn.
      if (!ctx.live) return next();
      if (ctx.kind === "model") return cassette.replaying ? replayModel(cassette, ctx, next) : recordModel(cassette, ctx, next());
      if (cassette.live) return next();
      if (ctx.kind === "tool") return cassette.replaying ? replayTool(cassette, ctx) : recordTool(cassette, ctx, next());
      if (ctx.kind === "http") return cassette.replaying ? replayHttp(cassette, ctx) : recordHttp(cassette, ctx, next());
      return next();
    },
  };
}

function replayTool(cassette: Cassette, ctx: StepContext): unknown {
  const found = cassette.nextTool(ctx.name);
  if (found === undefined) {
    const near = suggestName(ctx.name, cassette.recordedTools());
    return ctx.reject(
      `cassette ${cassette.path} holds no more calls of ${ctx.name}${near !== undefined && near !== ctx.name ? ` (nearest recorded tool: ${near})` : ""}. Record it again: TOOLTRACE_CASSETTE=record.`,
      { kind: "strict" },
    );
  }
  const source = { kind: "cassette", entry: found.index } as const;
  // Both sides are plain JSON (the input passed through the redactor), so key order is all that may differ.
  const input = cassette.redactor.value(ctx.input);
  if (!isDeepStrictEqual(input, found.entry.input)) {
    return ctx.reject(
      `cassette ${cassette.path}: call ${found.index + 1} of ${ctx.name} was recorded with ${JSON.stringify(found.entry.input)}, and the agent now sends ${JSON.stringify(input)}. Record it again: TOOLTRACE_CASSETTE=record.`,
      source,
    );
  }
  if (found.entry.error !== undefined)
    return ctx.fail(Object.assign(new Error(found.entry.error.message), { name: found.entry.error.name }), source);
  return ctx.answer(found.entry.output, source);
}

function recordTool(cassette: Cassette, ctx: StepContext, result: unknown): unknown {
  const input = cassette.redactor.value(ctx.input);
  // The call's place is taken when it starts, so parallel calls replay in the order they are made.
  const fill = cassette.reserveTool(ctx.name);
  const keep = (output: unknown) => fill({ input, output: cassette.redactor.value(output) });
  const keepError = (error: unknown) => {
    const { name, message } = toTraceError(error);
    fill({ input, error: { name, message } });
  };
  if (!isThenable(result)) {
    keep(result);
    return result;
  }
  return Promise.resolve(result).then(
    (output) => (keep(output), output),
    (error: unknown) => {
      keepError(error);
      throw error;
    },
  );
}

function httpKey(cassette: Cassette, request: HttpRequestView): string {
  return `${request.method} ${cassette.redactor.url(request.url)}`;
}

function replayHttp(cassette: Cassette, ctx: StepContext): unknown {
  const key = httpKey(cassette, ctx.input as HttpRequestView);
  const found = cassette.nextHttp(key);
  if (found === undefined) {
    const near = suggestName(key, cassette.recordedRequests());
    return ctx.reject(
      `cassette ${cassette.path} holds no more exchanges for ${key}${near !== undefined ? ` (nearest recorded: ${near})` : ""}. Record it again: TOOLTRACE_CASSETTE=record.`,
      { kind: "strict" },
    );
  }
  const { entry } = found;
  if ("networkError" in entry) return ctx.fail(new TypeError(entry.networkError), { kind: "cassette", entry: found.index });
  return ctx.answer(new Response(entry.body === "" ? null : entry.body, { status: entry.status, headers: entry.headers }), {
    kind: "cassette",
    entry: found.index,
  });
}

function recordHttp(cassette: Cassette, ctx: StepContext, result: unknown): unknown {
  const request = ctx.input as HttpRequestView;
  const fill = cassette.reserveHttp(httpKey(cassette, request));
  const sent = {
    method: request.method,
    url: cassette.redactor.url(request.url),
    ...(request.body !== undefined
      ? { requestBody: typeof request.body === "string" ? cassette.redactor.body(request.body) : cassette.redactor.value(request.body) }
      : {}),
  };
  return Promise.resolve(result).then(
    async (response) => {
      if (response instanceof Response) {
        // The whole body, a streamed one included: the clone is read while the client reads the original.
        const text = await response.clone().text();
        fill({
          ...sent,
          status: response.status,
          headers: cassette.redactor.headers(response.headers),
          body: cassette.redactor.body(text),
        });
      }
      return response;
    },
    (error: unknown) => {
      const { message } = toTraceError(error);
      fill({ ...sent, networkError: cassette.redactor.body(message) });
      throw error;
    },
  );
}

function replayModel(cassette: Cassette, ctx: StepContext, next: () => unknown): unknown {
  const found = cassette.nextModel();
  if (found === "live") return next();
  const request = ctx.input as MockModelRequest;
  const { entry, index } = found;
  if (entry === undefined) {
    const last = cassette.modelEntries > 0 ? ` The last recorded one is exchange ${cassette.modelEntries}.` : "";
    return ctx.reject(
      `cassette ${cassette.path} holds ${cassette.modelEntries} exchange${cassette.modelEntries === 1 ? "" : "s"} with the model, and the agent started exchange ${index + 1} (${ctx.name}, last user message ${JSON.stringify(request.lastUserMessage)}).${last} Record it again: TOOLTRACE_CASSETTE=record.`,
      { kind: "strict" },
    );
  }
  const source = { kind: "cassette", entry: index } as const;
  if (entry.lastUserMessage !== request.lastUserMessage) {
    return ctx.reject(
      `cassette ${cassette.path}: model exchange ${index + 1} was recorded for the user message ${JSON.stringify(entry.lastUserMessage)}, and the agent now sends ${JSON.stringify(request.lastUserMessage)}. Record it again: TOOLTRACE_CASSETTE=record.`,
      source,
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
  return ctx.answer({ text: entry.reply.text, toolCalls: entry.reply.toolCalls, usage: entry.reply.usage }, source);
}

function recordModel(cassette: Cassette, ctx: StepContext, result: unknown): unknown {
  const request = ctx.input as MockModelRequest;
  const fill = cassette.reserveModel();
  const { provider, model } = ctx.record as ModelCall;
  const base = { api: provider, model, lastUserMessage: request.lastUserMessage };
  return Promise.resolve(result).then(
    (value: unknown) => {
      const reply = value as ResolvedReply;
      fill({
        ...base,
        reply: {
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
