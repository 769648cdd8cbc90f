import { createRequire, syncBuiltinESMExports } from "node:module";
import { globalSingleton } from "../base/global-state.js";
import { guardDns } from "./dns-guard.js";
import { guardDgram, guardHttp2 } from "./net-guard.js";
import { guardChildProcesses, guardWorkers } from "./process-guard.js";
import { guardTcpHandles } from "./tcp-handle-guard.js";

const state = globalSingleton("edgeGuards.installed", () => ({ installed: false }));

/**
 * Installs the guards at the process's edges, once per process, when the first strict session is created:
 * TCP (and everything over it), UDP, DNS, HTTP/2 streams, worker threads and child processes. Each checks
 * `refuseAtEdge`, which lets everything through while no strict session runs or is open, so a process
 * without strict sessions only pays one async-context read per socket operation. Named imports of the
 * replaced module functions (`import { lookup } from "node:dns"`) see the guards too.
 */
export function installEdgeGuards(): void {
  if (state.installed) return;
  state.installed = true;
  const require = createRequire(import.meta.url);
  const exportsOf = (name: string) => require(name) as Record<string, unknown>;
  const patcher = (module: Record<string, unknown>) => (name: string, value: unknown) => {
    module[name] = value;
  };
  guardTcpHandles(require("node:tls"));
  guardDgram(require("node:dgram"));
  guardDns(require("node:dns"));
  guardHttp2(require("node:http2"), patcher(exportsOf("node:http2")));
  guardWorkers(require("node:worker_threads"), patcher(exportsOf("node:worker_threads")));
  guardChildProcesses(require("node:child_process"), patcher(exportsOf("node:child_process")));
  syncBuiltinESMExports();
}
