import type * as Http2 from "node:http2";
import type * as Net from "node:net";
import { refuseAtEdge } from "./edge-decision.js";
import { edgeError, noStrictSession } from "./edge-error.js";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;

/**
 * Guards HTTP/2 sessions in strict turns: a session opened before the strict turn writes from native code,
 * past any socket write, so each new stream (`session.request`) is checked against the session's peer.
 * (A new connection meets the TCP guard, hermetic or strict.)
 */
export function guardHttp2(http2: typeof Http2, patchExport: (name: string, value: unknown) => void): void {
  const connect = http2.connect as unknown as Method;
  let patched = false;
  const guardedConnect = function (this: unknown, ...args: unknown[]) {
    const session = connect.apply(this, args) as Http2.ClientHttp2Session;
    if (!patched) {
      patched = true;
      const proto = Object.getPrototypeOf(session) as Record<string, Method>;
      const request = proto.request as Method;
      proto.request = function guardedRequest(this: Http2.ClientHttp2Session, ...requestArgs: unknown[]) {
        const socket = this.socket as Net.Socket | undefined;
        if (noStrictSession() || socket?.remotePort === undefined || socket.remoteAddress === undefined)
          return request.apply(this, requestArgs);
        const refusal = refuseAtEdge({
          channel: "tcp",
          host: socket.remoteAddress,
          address: socket.remoteAddress,
          port: socket.remotePort,
        });
        if (refusal !== undefined) throw edgeError(refusal);
        return request.apply(this, requestArgs);
      };
    }
    return session;
  };
  patchExport("connect", guardedConnect);
}
