import type * as Tls from "node:tls";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { globalSingleton } from "../base/global-state.js";
import { guardDns } from "./dns-guard.js";
import { guardHttp2 } from "./http2-guard.js";
import { guardChildProcesses, guardWorkers } from "./process-guard.js";
import { edgeTargets, restoreWhenRealmEnds } from "./realm-patches.js";
import { guardTcpHandles, guardTlsWrites, tlsHandleClass } from "./tcp-handle-guard.js";
import { guardDgram } from "./udp-guard.js";

const state = globalSingleton("edgeGuards.installed", () => ({ edges: false, strict: false }));
const require = createRequire(import.meta.url);

/**
 * Installs the guards at the process's edges, once per process, before the test's modules load (the setup
 * file): TCP at the native handle (and everything over it), UDP, DNS, worker threads and child processes.
 * Each asks `refuseAtEdge` only when there is something to refuse (a strict session, or the hermetic run
 * and a host beyond loopback), so a test that stays on the machine pays one async-context read per
 * connection. Named imports of the replaced module functions (`import { lookup } from "node:dns"`) see the
 * guards too, and so does a module that takes them later (`const { execFileSync } = require(...)`).
 */
export function installEdgeGuards(): void {
  if (state.edges) return;
  state.edges = true;
  restoreWhenRealmEnds(edgeTargets());
  guardTcpHandles();
  guardDgram(require("node:dgram"));
  guardDns();
  guardWorkers(require("node:worker_threads"), patcher("node:worker_threads"));
  guardChildProcesses(require("node:child_process"), patcher("node:child_process"));
  syncBuiltinESMExports();
}

/**
 * What only strict sessions check, installed with the first one (the modules cost a few milliseconds to
 * load, charged to `createSession`, never to a call): writes of TLS connections opened before a strict turn,
 * and new streams of HTTP/2 sessions.
 */
export function installStrictGuards(): void {
  installEdgeGuards();
  if (state.strict) return;
  state.strict = true;
  const tls = require("node:tls") as typeof Tls;
  restoreWhenRealmEnds([tlsHandleClass(tls), require("node:http2") as object]);
  guardTlsWrites(tls);
  guardHttp2(require("node:http2"), patcher("node:http2"));
  syncBuiltinESMExports();
}

function patcher(name: string): (key: string, value: unknown) => void {
  const module = require(name) as Record<string, unknown>;
  return (key, value) => {
    module[key] = value;
  };
}
