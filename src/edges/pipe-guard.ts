import { constants } from "node:os";
import { resolve } from "node:path";
import { refuseAtEdge } from "./edge-decision.js";
import { edgeError, noStrictSession } from "./edge-error.js";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;

interface OwnerSocket {
  destroyed?: boolean;
  destroy(error: Error): void;
}

const WRITES = ["writev", "writeBuffer", "writeAsciiString", "writeUtf8String", "writeUcs2String", "writeLatin1String"];

/** The Unix-domain socket (or Windows named pipe) each client pipe handle connected to. */
const connectedTo = new WeakMap<object, string>();

/**
 * Guards Unix-domain sockets (a local database, the Docker socket) at the native pipe handle every client
 * `net.Socket` on a path wraps: in a strict session a connection to a path the session does not allow
 * (`allowSockets`) or a server of this process does not listen on is refused, and so is a write on one
 * opened before its turn. They stay on the machine, so the hermetic run lets them be. The pipes of child
 * processes and of standard streams are never connected, so never checked.
 */
export function guardPipeHandles(pipe: Record<string, Method>): void {
  const connect = pipe.connect as Method;
  pipe.connect = function guardedConnect(this: object, ...args: unknown[]) {
    const path = typeof args[1] === "string" ? resolve(args[1]) : undefined;
    if (path === undefined) return connect.apply(this, args);
    connectedTo.set(this, path);
    if (noStrictSession()) return connect.apply(this, args);
    const refusal = refuseAtEdge({ channel: "socket", path });
    if (refusal === undefined) return connect.apply(this, args);
    const owner = ownerOf(this);
    if (owner === undefined) return -constants.errno.ECONNREFUSED;
    process.nextTick(() => owner.destroy(edgeError(refusal)));
    return 0;
  };
  for (const name of WRITES) {
    const write = pipe[name];
    if (typeof write !== "function") continue;
    pipe[name] = function guardedWrite(this: object, ...args: unknown[]) {
      const path = connectedTo.get(this);
      if (path === undefined || noStrictSession()) return write.apply(this, args);
      const refusal = refuseAtEdge({ channel: "socket", path });
      if (refusal === undefined) return write.apply(this, args);
      const owner = ownerOf(this);
      if (owner !== undefined && owner.destroyed !== true) owner.destroy(edgeError(refusal));
      return -constants.errno.EPIPE;
    };
  }
}

function ownerOf(handle: object): OwnerSocket | undefined {
  const symbol = Object.getOwnPropertySymbols(handle).find((candidate) => candidate.description === "owner_symbol");
  const owner = symbol === undefined ? undefined : (handle as Record<symbol, unknown>)[symbol];
  return owner !== null && typeof owner === "object" && typeof (owner as OwnerSocket).destroy === "function"
    ? (owner as OwnerSocket)
    : undefined;
}
