import type * as Dgram from "node:dgram";
import { type EdgeTarget, refuseAtEdge } from "./edge-decision.js";
import { edgeError, noStrictSession } from "./edge-error.js";
import { hermeticIsOn } from "./hermetic.js";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;

/** Guards UDP: a datagram to a host the session (or the hermetic run) does not allow is not sent; its callback (or the socket) gets the refusal. */
export function guardDgram(dgram: typeof Dgram): void {
  const proto = dgram.Socket.prototype as unknown as Record<string, Method>;
  const send = proto.send as Method;
  const connectUdp = proto.connect as Method;
  proto.send = function guardedSend(this: Dgram.Socket, ...args: unknown[]) {
    if (noStrictSession() && !hermeticIsOn()) return send.apply(this, args);
    const target = udpTarget(this, args);
    const refusal = target === undefined ? undefined : refuseAtEdge(target);
    if (refusal === undefined) return send.apply(this, args);
    fail(this, args, refusal);
    return undefined;
  };
  proto.connect = function guardedConnect(this: Dgram.Socket, ...args: unknown[]) {
    if (noStrictSession() && !hermeticIsOn()) return connectUdp.apply(this, args);
    const port = Number(args[0]);
    const host = typeof args[1] === "string" ? args[1] : "localhost";
    const refusal = refuseAtEdge({ channel: "udp", host, port });
    if (refusal === undefined) return connectUdp.apply(this, args);
    fail(this, args, refusal);
    return undefined;
  };
}

function fail(socket: Dgram.Socket, args: readonly unknown[], refusal: string): void {
  const callback = args.at(-1);
  const error = edgeError(refusal);
  process.nextTick(() => (typeof callback === "function" ? callback(error) : socket.emit("error", error)));
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
