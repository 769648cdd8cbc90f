import { TooltraceError } from "../exits/errors.js";
import type { MockModelRequest, ResolvedReply } from "../model/types.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { DecodedRequest, WireCodec } from "../wire/codec.js";
import type { WireMemory } from "../wire/memory.js";
import { applyEdits, hasEdits, type WireEdits } from "../wire/request-edits.js";
import { forwardToUpstream, type LiveStream, upstreamUrl } from "../wire/upstream.js";
import type { WireRequest } from "../wire/wire-http.js";
import type { ProviderWait } from "../trace/types.js";

/** What sending a wire request on to the real model needs of it. */
export interface UpstreamExchange {
  readonly codec: WireCodec;
  readonly request: WireRequest;
  /** The request's path without a route token, as the client's SDK built it. */
  readonly path: string;
  /** The request came to a loopback server (a CLI's proxy, a session's route), not to the provider's own URL. */
  readonly proxied: boolean;
  readonly memory: WireMemory;
}

/** For the request a model call was opened with, the terminal's model; `onWait` hears the provider's waits. */
export type LiveModel = (
  asked: MockModelRequest,
  onStream?: (live: LiveStream) => void,
  onWait?: (wait: ProviderWait) => void,
) => (view: MockModelRequest) => Promise<ResolvedReply>;

/**
 * The real model for a session with `upstream`: the client's own request, sent on as it came, or, where the
 * chain changed its conversation (`edits`: a CLI's calls answered by stubs or middleware, rewritten inputs,
 * transformed or scrubbed results), re-encoded by the codec with those changes put back and everything else
 * as the client sent it. Returns, for the request a model call was opened with, the terminal's model.
 */
export function liveModel(
  exchange: UpstreamExchange,
  pipeline: Pipeline,
  decoded: DecodedRequest,
  text: string,
  edits?: () => WireEdits,
): LiveModel | undefined {
  const { upstream } = pipeline;
  if (upstream === undefined) return undefined;
  const { codec, request } = exchange;
  return (asked, onStream, onWait) => (view) => {
    // A step or middleware that rewrote the model request itself: nothing says how in the provider's format.
    if (view !== asked && JSON.stringify(view.messages) !== JSON.stringify(asked.messages)) {
      return Promise.reject(
        new TooltraceError(
          "a step or middleware rewrote the model request's messages, and a rewritten conversation cannot be sent to the real model in the provider's own format. Change tool inputs and results instead (onToolCall, stubs, scrubber), which are put back into the request, or answer the model with `llm`.",
        ),
      );
    }
    // After a replayed prefix, a stateful conversation points at what the cassette's replies were called here.
    if (refersToIssued(decoded.body, exchange.memory.issued)) {
      return Promise.reject(
        new TooltraceError(
          "this request refers to a response or an item tooltrace issued while replaying (previous_response_id or item_reference), which the upstream never saw, so it cannot go live. Replay a prefix with a client that sends the whole conversation (OpenAI Responses with store: false), or replay the whole cassette.",
        ),
      );
    }
    const changes = asked === decoded.view || edits === undefined ? undefined : edits();
    const body = changes !== undefined && hasEdits(changes) ? JSON.stringify(applyEdits(codec.editor, decoded.body, changes)) : text;
    return forwardToUpstream(
      codec,
      upstreamUrl(upstream, codec, request.url, exchange.path, exchange.proxied),
      request.headers,
      body,
      decoded.stream,
      { model: decoded.model, signal: request.signal, onStream, onWait },
    );
  };
}

/** A Responses request pointing at a response or an item the wire mock made up (while replaying), which no upstream knows. */
function refersToIssued(body: Readonly<Record<string, unknown>>, ids: ReadonlySet<string>): boolean {
  const issued = (id: unknown) => typeof id === "string" && ids.has(id);
  if (issued(body.previous_response_id)) return true;
  return (
    Array.isArray(body.input) &&
    body.input.some(
      (item: unknown) =>
        item !== null &&
        typeof item === "object" &&
        (item as { type?: unknown }).type === "item_reference" &&
        issued((item as { id?: unknown }).id),
    )
  );
}
