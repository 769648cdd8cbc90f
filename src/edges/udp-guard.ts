import { constants } from "node:os";
import { refuseAtEdge } from "./edge-decision.js";
import { edgeError, noStrictSession } from "./edge-error.js";
import { hermeticIsOn } from "./hermetic.js";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;

interface UdpHandle {
  getpeername?(out: { address?: string; port?: number }): number;
}

interface Bindings {
  binding?(name: string): { UDP?: { prototype: Record<string, Method> } };
}

/**
 * Guards UDP at Node's native UDP handle, where `dgram` hands each datagram and each `connect` the address it
 * resolved (after any `lookup` of the socket's own): a datagram or a connection to an address the session (or
 * the hermetic run) does not allow is not sent, and the socket's callback (or `error` event) gets an error as
 * for a refused send; the refusal fails the test. Where the bindings are closed (the permission model),
 * `dgram`'s own methods are guarded, on the host they are given.
 */
export function guardDgram(dgram: typeof import("node:dgram")): void {
  let proto: Record<string, Method> | undefined;
  try {
    proto = (process as unknown as Bindings).binding?.("udp_wrap").UDP?.prototype;
  } catch {
    proto = undefined;
  }
  const target = proto ?? (dgram.Socket.prototype as unknown as Record<string, Method>);
  const native = proto !== undefined;
  for (const name of native ? ["send", "send6"] : ["send"]) guardSend(target, name, native);
  for (const name of native ? ["connect", "connect6"] : ["connect"]) guardConnect(target, name, native);
}

const REFUSED = -constants.errno.ECONNREFUSED;

/** `send(req, list, count, port, address, hasCallback)`, or a connected socket's `send(req, list, count, hasCallback)`. */
function guardSend(proto: Record<string, Method>, name: string, native: boolean): void {
  const send = proto[name];
  if (typeof send !== "function") return;
  proto[name] = function guardedSend(this: UdpHandle, ...args: unknown[]) {
    if (noStrictSession() && !hermeticIsOn()) return send.apply(this, args);
    const [port, address] = native
      ? typeof args[3] === "number"
        ? [args[3], args[4]]
        : peerOf(this)
      : [args.find((arg) => typeof arg === "number" && arg > 0), args.find((arg) => typeof arg === "string")];
    if (typeof port !== "number" || typeof address !== "string") return send.apply(this, args);
    const refusal = refuseAtEdge({ channel: "udp", host: address, address, port });
    if (refusal === undefined) return send.apply(this, args);
    if (!native) return failLater(this, args, refusal);
    // The send's callback gets the refusal itself; without one, `dgram` says nothing, and the refusal fails the test.
    const request = args[0] as { callback?: (error: Error) => void; oncomplete?: unknown } | undefined;
    const callback = request?.callback;
    if (request === undefined || typeof callback !== "function") return REFUSED;
    request.oncomplete = () => undefined;
    process.nextTick(() => callback(edgeError(refusal)));
    return 0;
  };
}

/** `connect(address, port)` (the native handle), or `dgram`'s `connect(port, address?)`. */
function guardConnect(proto: Record<string, Method>, name: string, native: boolean): void {
  const connect = proto[name];
  if (typeof connect !== "function") return;
  proto[name] = function guardedConnect(this: UdpHandle, ...args: unknown[]) {
    if (noStrictSession() && !hermeticIsOn()) return connect.apply(this, args);
    const [address, port] = native ? [args[0], args[1]] : [typeof args[1] === "string" ? args[1] : "localhost", args[0]];
    if (typeof port !== "number" || typeof address !== "string") return connect.apply(this, args);
    const refusal = refuseAtEdge({ channel: "udp", host: address, address, port });
    if (refusal === undefined) return connect.apply(this, args);
    return native ? REFUSED : failLater(this, args, refusal);
  };
}

/** `dgram`'s own method refused: its callback (or the socket's `error` event) gets the refusal a tick later. */
function failLater(socket: unknown, args: readonly unknown[], refusal: string): undefined {
  const callback = args.at(-1);
  const error = edgeError(refusal);
  process.nextTick(() =>
    typeof callback === "function" ? callback(error) : (socket as import("node:events").EventEmitter).emit("error", error),
  );
  return undefined;
}

function peerOf(handle: UdpHandle): [unknown, unknown] {
  const peer: { address?: string; port?: number } = {};
  return handle.getpeername?.(peer) === 0 ? [peer.port, peer.address] : [undefined, undefined];
}
