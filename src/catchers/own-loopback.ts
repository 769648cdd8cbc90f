import { globalSingleton } from "../base/global-state.js";

/** The origins (`http://127.0.0.1:PORT`) of the servers `serveOnLoopback` started in this process. */
export const ownLoopbackServers = globalSingleton("ownLoopbackServers", () => new Set<string>());

/** Whether `origin` is a server of tooltrace's own on loopback (a CLI agent's proxy): the test's own fakes are not. */
export function isOwnLoopbackServer(origin: string): boolean {
  return ownLoopbackServers.has(origin);
}
