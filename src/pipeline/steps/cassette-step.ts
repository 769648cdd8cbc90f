import { isDeepStrictEqual } from "node:util";
import { settle } from "../../base/settle.js";
import { isResponse } from "../../base/web-response.js";
import type { Cassette } from "../../cassettes/cassette.js";
import type { HttpRequestView } from "../../http-mocks/types.js";
import { reportStale } from "../../cassettes/stale.js";
import { compactJson } from "../../exits/excerpt.js";
import { jsonDifferences } from "../../trace/json-diff.js";
import { suggestName } from "../../stubs/suggest.js";
import { toTraceError } from "../../trace/to-trace-error.js";
import type { Step, StepContext } from "../types.js";
import { recordModel, replayModel } from "./cassette-model.js";

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
      if (ctx.kind === "tool") return cassette.replaying ? replayTool(cassette, ctx) : recordTool(cassette, ctx, next);
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
    // The call is fingerprinted by its input: another input is a stale entry (it still replays), as for the model.
    const changes = jsonDifferences(found.entry.input, input).map(({ pointer, kind, expected, actual }) =>
      [
        kind !== "added" ? `- input${pointer}: ${compactJson(expected, 120)}` : "",
        kind !== "removed" ? `+ input${pointer}: ${compactJson(actual, 120)}` : "",
      ]
        .filter((line) => line !== "")
        .join("\n"),
    );
    reportStale(
      { cassette: cassette.path, entry: `call ${found.index + 1} of ${ctx.name}`, changes, rerecord: cassette.rerecord },
      cassette.stale,
      (text) => ctx.violation(text),
    );
  }
  if (found.entry.error !== undefined)
    return ctx.fail(Object.assign(new Error(found.entry.error.message), { name: found.entry.error.name }), source);
  return ctx.answer(found.entry.output, source);
}

function recordTool(cassette: Cassette, ctx: StepContext, next: () => unknown): unknown {
  const input = cassette.redactor.value(ctx.input);
  // The call's place is taken when it starts, so parallel calls replay in the order they are made.
  const fill = cassette.reserveTool(ctx.name);
  return settle(
    next,
    (output) => {
      fill({ input, output: cassette.redactor.value(output) });
      return output;
    },
    (error) => {
      const { name, message } = toTraceError(error);
      fill({ input, error: { name, message } });
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
  const body = entry.body === "" ? null : entry.bodyEncoding === "base64" ? Buffer.from(entry.body, "base64") : entry.body;
  return ctx.answer(new Response(body, { status: entry.status, headers: entry.headers }), {
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
      if (isResponse(response)) {
        // The whole body, a streamed one included: the clone is read while the client reads the original.
        const bytes = new Uint8Array(await response.clone().arrayBuffer());
        const text = textOf(bytes, response.headers.get("content-type"));
        fill({
          ...sent,
          status: response.status,
          headers: cassette.redactor.headers(response.headers),
          ...(text === undefined
            ? { body: Buffer.from(cassette.redactor.bytes(bytes)).toString("base64"), bodyEncoding: "base64" as const }
            : { body: cassette.redactor.body(text) }),
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

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|x-ndjson|graphql)|[^;]*\+(json|xml))/i;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A body as text, when it is text (its type says so, or it has none, and it is valid UTF-8); `undefined` for bytes. */
function textOf(bytes: Uint8Array, contentType: string | null): string | undefined {
  if (contentType !== null && !TEXT_TYPES.test(contentType.trim())) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
