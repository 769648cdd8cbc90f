import type * as Tls from "node:tls";
import { constants } from "node:os";
import { isLoopbackAddress } from "../pipeline/hosts.js";
import { type EdgeTarget, refuseAtEdge } from "./edge-decision.js";
import { edgeError, noStrictSession } from "./edge-error.js";
import { hermeticIsOn } from "./hermetic.js";
import { nativeHandleClasses } from "./native-handles.js";
import { guardPipeHandles } from "./pipe-guard.js";

// biome-ignore lint/suspicious/noExplicitAny: a patched method keeps whatever `this` its class gives it.
type Method = (this: any, ...args: unknown[]) => unknown;

interface Handle {
  getpeername?(out: { address?: string; port?: number }): number;
  getsockname?(out: { address?: string; port?: number }): number;
  [key: symbol]: unknown;
}

interface OwnerSocket {
  _host?: unknown;
  server?: unknown;
  _server?: unknown;
  destroyed?: boolean;
  destroy(error: Error): void;
}

const WRITES = ["writev", "writeBuffer", "writeAsciiString", "writeUtf8String", "writeUcs2String", "writeLatin1String"];

/**
 * Guards TCP where every client ends up, below any library's patches of `net.Socket` (MSW's socket
 * interceptor, which answers mocked connections itself and dials only what it passes through): the native
 * handle's `connect`, checked for the hermetic run and for strict sessions, and its writes, checked in strict
 * sessions only (a connection opened before a strict turn: a keep-alive pool). A refused socket fails with
 * the refusal as its error. Installed by the setup file, before the test's modules load.
 */
export function guardTcpHandles(): void {
  const { tcp, pipe } = nativeHandleClasses();
  if (pipe !== undefined) guardPipeHandles(pipe);
  for (const name of ["connect", "connect6"]) guardConnect(tcp, name);
  for (const name of WRITES) guardWrite(tcp, name, (handle) => handle);
}

/** The writes of TLS over TCP, for strict sessions: installed with the first one (loading `tls` costs a few ms). */
export function guardTlsWrites(tls: typeof Tls): void {
  const tlsProto = tlsHandleClass(tls);
  for (const name of WRITES) guardWrite(tlsProto, name, (handle) => (handle as { _parent?: Handle })._parent);
}

/** The prototype of Node's native TLS handle: a TLS socket made without a transport owns a fresh one. */
export function tlsHandleClass(tls: typeof Tls): Record<string, Method> {
  const probe = new tls.TLSSocket(null as unknown as import("node:net").Socket);
  const tlsProto = Object.getPrototypeOf((probe as unknown as { _handle: object })._handle) as Record<string, Method>;
  probe.destroy();
  return tlsProto;
}

function guardConnect(proto: Record<string, Method>, name: string): void {
  const connect = proto[name] as Method;
  proto[name] = function guardedConnect(this: Handle, ...args: unknown[]) {
    const [, address, port] = args as [unknown, string, number];
    if (noStrictSession() && (!hermeticIsOn() || isLoopbackAddress(address))) return connect.apply(this, args);
    const owner = ownerOf(this);
    const host = typeof owner?._host === "string" ? owner._host : address;
    const refusal = refuseAtEdge({ channel: "tcp", host, address, port });
    if (refusal === undefined) return connect.apply(this, args);
    if (owner === undefined) return -constants.errno.ECONNREFUSED;
    // No connection was started: the socket fails with the refusal, as it would with a refused connection.
    process.nextTick(() => owner.destroy(edgeError(refusal)));
    return 0;
  };
}

function guardWrite(proto: Record<string, Method>, name: string, transport: (handle: Handle) => Handle | undefined): void {
  const write = proto[name];
  if (typeof write !== "function") return;
  proto[name] = function guardedWrite(this: Handle, ...args: unknown[]) {
    if (noStrictSession()) return write.apply(this, args);
    const target = peerOf(this, transport(this));
    const refusal = target === undefined ? undefined : refuseAtEdge(target);
    if (refusal === undefined) return write.apply(this, args);
    const owner = ownerOf(this);
    if (owner !== undefined && owner.destroyed !== true) owner.destroy(edgeError(refusal));
    return -constants.errno.EPIPE;
  };
}

/** The remote end of a connection this process opened; `undefined` for one a server here accepted. */
function peerOf(handle: Handle, tcp: Handle | undefined): EdgeTarget | undefined {
  const owner = ownerOf(handle);
  // A socket a server accepted answers a client in this process; only connections made from here go out.
  if (owner !== undefined && (owner.server != null || owner._server != null)) return undefined;
  const peer: { address?: string; port?: number } = {};
  if (tcp?.getpeername === undefined || tcp.getpeername(peer) !== 0 || peer.address === undefined || peer.port === undefined)
    return undefined;
  const host = typeof owner?._host === "string" ? owner._host : peer.address;
  return { channel: "tcp", host, address: peer.address, port: peer.port };
}

function ownerOf(handle: Handle): OwnerSocket | undefined {
  const symbol = Object.getOwnPropertySymbols(handle).find((candidate) => candidate.description === "owner_symbol");
  const owner = symbol === undefined ? undefined : handle[symbol];
  return owner !== null && typeof owner === "object" && typeof (owner as OwnerSocket).destroy === "function"
    ? (owner as OwnerSocket)
    : undefined;
}
