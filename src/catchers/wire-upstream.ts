import { TooltraceError } from "../base/errors.js";
import type { MockModelRequest, ResolvedReply } from "../model/types.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { DecodedRequest, WireCodec } from "../wire/codec.js";
import type { WireMemory } from "../wire/memory.js";
import { forwardToUpstream, upstreamUrl } from "../wire/upstream.js";
import type { WireRequest } from "../wire/wire-http.js";

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

/** The real model for a session with `upstream`: the client's own request, sent on as it came. */
export function liveModel(
  exchange: UpstreamExchange,
  pipeline: Pipeline,
  decoded: DecodedRequest,
  text: string,
): ((view: MockModelRequest) => Promise<ResolvedReply>) | undefined {
  const { upstream } = pipeline;
  if (upstream === undefined) return undefined;
  const { codec, request } = exchange;
  return (view) => {
    // The client's own request goes on: a conversation the chain changed (a CLI's withheld calls put back) cannot.
    if (view !== decoded.view && JSON.stringify(view.messages) !== JSON.stringify(decoded.view.messages)) {
      return Promise.reject(
        new TooltraceError(
          "this request's conversation was changed by tooltrace (tool calls answered in the chain were put back in, or inputs and results a middleware changed), and only a client's own request can be sent on to the upstream. Let the real tools run while recording with a CLI agent, or answer its model with `llm`.",
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
    return forwardToUpstream(
      codec,
      upstreamUrl(upstream, codec, request.url, exchange.path, exchange.proxied),
      request.headers,
      text,
      decoded.stream,
      request.signal,
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
