import { faultStatus, type InjectedFault, retryHeaders } from "../faults/fault-error.js";
import { pacedBody, textDelays, tokensMs } from "../faults/paced-body.js";
import type { FiredFault } from "../faults/types.js";
import type { ResolvedReply } from "../model/types.js";
import { chunkText } from "../model/chunk-text.js";
import { type DecodedRequest, WIRE_DELTA, type WireCodec } from "./codec.js";
import { WireNetworkError, type WireReply } from "./wire-http.js";

/** What a faulty reply carries when no answer came with the fault (a script that ran out, say). */
const PARTIAL: ResolvedReply = {
  text: "Let me think about that request for a moment before I answer it in full.",
  toolCalls: [],
  usage: { inputTokens: 10, outputTokens: 16, totalTokens: 26 },
};

/**
 * A fault as the provider's client meets it: the provider's own error (429 with `Retry-After`, 5xx, 529), or
 * the answer itself broken: its JSON cut in the middle, or its stream dropped after `afterEvents` events.
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
  const answer = (injected.answer as ResolvedReply | undefined) ?? PARTIAL;
  const cut = new Error(`the connection dropped: ${injected.message}`);
  if (!decoded.stream) {
    const json = JSON.stringify(codec.encodeJson(answer, decoded, id));
    const half = json.slice(0, Math.ceil(json.length / 2));
    const headers = { ...codec.headers, "content-type": "application/json" };
    // A cut JSON answer announces its whole length, so the client sees the connection close early.
    if (kind === "malformed") return { status: 200, headers, body: half };
    return { status: 200, headers, body: pacedBody([half], { cutAfter: 1, cut }) };
  }
  const events = codec.encodeStream(answer, decoded, id);
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
 * A streamed reply a `slow` fault paces as a client measures it: the events before the first content at once
 * (the time to first token was spent before the headers, in the chain), then each content event after the time
 * its share of the answer's tokens takes at `tokensPerSecond`. An answer without text spreads that time evenly.
 */
export function pacedReply(reply: WireReply, fired: FiredFault, answer: ResolvedReply, events: readonly string[]): WireReply {
  const total = tokensMs(fired, answer.usage.outputTokens);
  if (total === 0 || events.length < 2) return reply;
  return { ...reply, body: pacedBody(events, { delays: textDelays(contentWeights(events, answer.text), total) }) };
}

/** How much of `text` each event carries: its deltas, found in order as the codec wrote them (JSON-escaped). */
function contentWeights(events: readonly string[], text: string): number[] {
  const chunks = text === "" ? [] : chunkText(text, WIRE_DELTA);
  let next = 0;
  return events.map((event) => {
    let weight = 0;
    let from = 0;
    while (next < chunks.length) {
      const escaped = JSON.stringify(chunks[next]).slice(1, -1);
      const at = event.indexOf(escaped, from);
      if (at === -1) break;
      weight += (chunks[next] as string).length;
      from = at + escaped.length;
      next += 1;
    }
    return weight;
  });
}
