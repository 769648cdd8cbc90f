import type * as Dgram from "node:dgram";
import type * as Http2 from "node:http2";
import type * as Net from "node:net";
import { openEdgeGuards } from "../pipeline/edge-policy.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { type EdgeTarget, refuseAtEdge } from "./edge-decision.js";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;

/** The error a refused socket operation fails with: a network error, with the refusal as its message. */
export function edgeError(message: string): Error {
  return Object.assign(new Error(message), { code: "ERR_TOOLTRACE_STRICT" });
}

/** Nothing to check: no strict session is open and none is running here (the common case, one ALS read). */
export function unguarded(): boolean {
  return currentTurnContext()?.pipeline.edges === undefined && openEdgeGuards().size === 0;
}

/** Guards UDP: a datagram to a host the session does not allow is not sent, and its callback (or the socket) gets the refusal. */
export function guardDgram(dgram: typeof Dgram): void {
  const proto = dgram.Socket.prototype as unknown as Record<string, Method>;
  const send = proto.send as Method;
  const connectUdp = proto.connect as Method;
  proto.send = function guardedSend(this: Dgram.Socket, ...args: unknown[]) {
    if (unguarded()) return send.apply(this, args);
    const target = udpTarget(this, args);
    const refusal = target === undefined ? undefined : refuseAtEdge(target);
    if (refusal === undefined) return send.apply(this, args);
    const callback = args.at(-1);
    const error = edgeError(refusal);
    process.nextTick(() => (typeof callback === "function" ? callback(error) : this.emit("error", error)));
    return undefined;
  };
  proto.connect = function guardedConnect(this: Dgram.Socket, ...args: unknown[]) {
    if (unguarded()) return connectUdp.apply(this, args);
    const port = Number(args[0]);
    const host = typeof args[1] === "string" ? args[1] : "localhost";
    const refusal = refuseAtEdge({ channel: "udp", host, port });
    if (refusal === undefined) return connectUdp.apply(this, args);
    const callback = args.at(-1);
    const error = edgeError(refusal);
    process.nextTick(() => (typeof callback === "function" ? callback(error) : this.emit("error", error)));
    return undefined;
  };
}

/** `send(msg, [offset, length,] [port, [address]], [callback])`, or a connected socket's peer. */
function udpTarget(socket: Dgram.Socket, args: readonly unknown[]): EdgeTarget | undefined {
  const rest = args.slice(1).filter((arg) => typeof arg !== "function");
  if (rest.length >= 3 && typeof rest[0] === "number" && typeof rest[1] === "number") rest.splice(0, 2);
  if (typeof rest[0] === "number") return { channel: "udp", host: typeof rest[1] === "string" ? rest[1] : "localhost", port: rest[0] };
  try {
    const peer = socket.remoteAddress();
    return { channel: "udp", host: peer.address, port: peer.port };
  } catch {
    return undefined;
  }
}

/**
 * Guards HTTP/2 sessions: a session opened before the strict turn writes from native code, past any socket
 * write, so each new stream (`session.request`) is checked against the session's peer.
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
        if (unguarded() || socket?.remotePort === undefined || socket.remoteAddress === undefined) return request.apply(this, requestArgs);
        const refusal = refuseAtEdge({ channel: "tcp", host: socket.remoteAddress, port: socket.remotePort });
        if (refusal !== undefined) throw edgeError(refusal);
        return request.apply(this, requestArgs);
      };
    }
    return session;
  };
  patchExport("connect", guardedConnect);
}
