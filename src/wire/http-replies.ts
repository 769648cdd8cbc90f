import type { ResolvedReply } from "../model/types.js";
import { type DecodedRequest, ERROR_STATUS, type WireCodec, type WireErrorKind } from "./codec.js";
import type { WireReply } from "./wire-http.js";

export function jsonReply(body: unknown, status: number, headers: Readonly<Record<string, string>>): WireReply {
  return { status, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) };
}

/** The provider's error answer. `x-should-retry: false` stops the official SDKs from retrying a mock's deliberate error. */
export function errorReply(codec: WireCodec, kind: WireErrorKind, message: string, param?: string): WireReply {
  return jsonReply(codec.errorBody(kind, message, param), ERROR_STATUS[kind], { ...codec.headers, "x-should-retry": "false" });
}

/** The mock's reply as the provider sends it: its JSON, or its server-sent events (all at once) when the client streams. */
export function modelReply(codec: WireCodec, reply: ResolvedReply, decoded: DecodedRequest, id: string): WireReply {
  if (!decoded.stream) return jsonReply(codec.encodeJson(reply, decoded, id), 200, codec.headers);
  if (decoded.jsonArrayStream) {
    const chunks = codec.encodeStream(reply, decoded, id).map((event) => event.replace(/^data: /, "").trim());
    return { status: 200, headers: { ...codec.headers, "content-type": "application/json" }, body: `[${chunks.join(",\r\n")}]` };
  }
  return {
    status: 200,
    headers: { ...codec.headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    body: codec.encodeStream(reply, decoded, id).join(""),
  };
}
