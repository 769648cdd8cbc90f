import { faultStatus, type InjectedFault, retryHeaders } from "../faults/fault-error.js";
import { pacedBody, tokensMs } from "../faults/paced-body.js";
import type { FiredFault } from "../faults/types.js";
import type { ResolvedReply } from "../model/types.js";
import type { DecodedRequest, WireCodec } from "./codec.js";
import { WireNetworkError, type WireReply } from "./wire-http.js";

/** What a faulty reply carries, so the client gets something of the right shape before it breaks. */
const PARTIAL: ResolvedReply = {
  text: "Let me think about that request for a moment before I answer it in full.",
  toolCalls: [],
  usage: { inputTokens: 10, outputTokens: 16, totalTokens: 26 },
};

/**
 * A fault as the provider's client meets it: the provider's own error (429 with `Retry-After`, 5xx, 529), a
 * body cut in the middle of its JSON, or a connection that drops after a few server-sent events.
 */
export function faultReply(codec: WireCodec, injected: InjectedFault, decoded: DecodedRequest, id: string): WireReply {
  const { fired } = injected;
  const kind = fired.fault.fault;
  if (kind === "rate_limit" || kind === "server_error" || kind === "overloaded") {
    const status = faultStatus(fired, codec.overloadedStatus);
    const headers = { ...codec.headers, "content-type": "application/json", ...retryHeaders(fired) };
    return { status, headers, body: JSON.stringify(codec.errorBody(kind, injected.message, undefined, status)) };
  }
  if (kind === "network_error") throw new WireNetworkError(injected.message);
  const cut = new Error(`the connection dropped: ${injected.message}`);
  if (!decoded.stream) {
    const json = JSON.stringify(codec.encodeJson(PARTIAL, decoded, id));
    const half = json.slice(0, Math.ceil(json.length / 2));
    const headers = { ...codec.headers, "content-type": "application/json" };
    // A cut JSON answer announces its whole length, so the client sees the connection close early.
    if (kind === "malformed") return { status: 200, headers, body: half };
    return { status: 200, headers, body: pacedBody([half], { cutAfter: 1, cut }) };
  }
  const events = codec.encodeStream(PARTIAL, decoded, id);
  const headers = { ...codec.headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
  const after = Math.min(fired.fault.afterEvents ?? 2, events.length - 1);
  if (kind === "malformed") {
    // The event cut in half is one the client must parse (a content delta), not one it may skip (a ping).
    const at = events.findIndex((event, index) => index >= after && event.includes("delta"));
    const cutAt = at === -1 ? after : at;
    const broken = events[cutAt] ?? "";
    const pieces = [...events.slice(0, cutAt), `${broken.slice(0, Math.ceil(broken.length / 2)).trimEnd()}\n\n`];
    return { status: 200, headers, body: pieces.join("") };
  }
  return { status: 200, headers, body: pacedBody(events, { cutAfter: after, cut }) };
}

/**
 * A streamed reply a `slow` fault paces: its events spread over the time its tokens take at the fault's
 * `tokensPerSecond` (the time to first token was spent before the headers, in the chain).
 */
export function pacedReply(reply: WireReply, fired: FiredFault, events: readonly string[], outputTokens: number): WireReply {
  const intervalMs = events.length > 1 ? tokensMs(fired, outputTokens) / (events.length - 1) : 0;
  return intervalMs === 0 ? reply : { ...reply, body: pacedBody(events, { intervalMs }) };
}
