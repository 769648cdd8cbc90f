import type { Server } from "node:net";

interface HandleSource {
  _getActiveHandles?: () => unknown[];
}

/**
 * The ports this process listens on (the test's own fake services, tooltrace's loopback servers), read from
 * the process's active handles when asked: a loopback connection to one of them stays in the process.
 */
export function listensOn(port: number): boolean {
  const handles = (process as unknown as HandleSource)._getActiveHandles?.() ?? [];
  return handles.some((handle) => {
    const server = handle as Partial<Server>;
    if (typeof server.address !== "function" || server.listening !== true) return false;
    const address = server.address();
    return address !== null && typeof address === "object" && address.port === port;
  });
}
