import type { Server } from "node:net";
import { resolve } from "node:path";
import { canonicalAddress, isLoopbackAddress } from "../pipeline/hosts.js";

interface HandleSource {
  _getActiveHandles?: () => unknown[];
}

const ANY = new Set(["0.0.0.0", "0:0:0:0:0:0:0:0"]);

/**
 * Whether a server of this process listens at `address:port` (the test's own fake services, tooltrace's
 * loopback servers), read from the process's active handles when asked: a loopback connection to one of
 * them stays in the process. The address counts: another process may listen on the same port number at
 * another loopback address. A server bound to every address (`0.0.0.0`, `::`) answers any loopback address.
 */
export function listensOn(address: string, port: number): boolean {
  if (!isLoopbackAddress(address)) return false;
  const wanted = canonicalAddress(address);
  const handles = (process as unknown as HandleSource)._getActiveHandles?.() ?? [];
  return handles.some((handle) => {
    const server = handle as Partial<Server>;
    if (typeof server.address !== "function" || server.listening !== true) return false;
    const bound = server.address();
    if (bound === null || typeof bound !== "object" || bound.port !== port) return false;
    const at = canonicalAddress(bound.address);
    return ANY.has(at) || at === wanted;
  });
}

/** Whether a server of this process listens on the Unix socket (or named pipe) at `path`. */
export function listensAtPath(path: string): boolean {
  const handles = (process as unknown as HandleSource)._getActiveHandles?.() ?? [];
  return handles.some((handle) => {
    const server = handle as Partial<Server>;
    if (typeof server.address !== "function" || server.listening !== true) return false;
    const bound = server.address();
    return typeof bound === "string" && resolve(bound) === path;
  });
}
