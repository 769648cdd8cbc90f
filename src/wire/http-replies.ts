import type { ResolvedReply } from "../model/types.js";
import { type DecodedRequest, ERROR_STATUS, type WireCodec, type WireErrorKind } from "./codec.js";

export function jsonResponse(body: unknown, status: number, headers: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": "application/json" } });
}

/** The provider's error answer. `x-should-retry: false` stops the official SDKs from retrying a mock's deliberate error. */
export function errorResponse(codec: WireCodec, kind: WireErrorKind, message: string, param?: string): Response {
  return jsonResponse(codec.errorBody(kind, message, param), ERROR_STATUS[kind], { ...codec.headers, "x-should-retry": "false" });
}

/** The mock's reply as the provider sends it: its JSON, or its server-sent events when the client streams. */
export function replyResponse(codec: WireCodec, reply: ResolvedReply, decoded: DecodedRequest, id: string): Response {
  if (!decoded.stream) return jsonResponse(codec.encodeJson(reply, decoded, id), 200, codec.headers);
  // The mock's events are all known at once: one chunk, as a fast provider's reply arrives.
  const bytes = new TextEncoder().encode(codec.encodeStream(reply, decoded, id).join(""));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Response(stream, {
    headers: { ...codec.headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}
