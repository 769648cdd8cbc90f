import type * as ChildProcesses from "node:child_process";
import type * as WorkerThreads from "node:worker_threads";
import { type EdgeTarget, refuseAtEdge } from "./edge-decision.js";
import { edgeError } from "./edge-error.js";
import { programsOf } from "./shell-programs.js";

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Guards worker threads: a worker has its own modules, out of tooltrace's reach, so one started during a
 * strict turn is refused at its start (the constructor throws) unless the session allows processes.
 */
export function guardWorkers(workerThreads: typeof WorkerThreads, patchExport: (name: string, value: unknown) => void): void {
  const Worker = workerThreads.Worker;
  class GuardedWorker extends Worker {
    constructor(...args: ConstructorParameters<typeof Worker>) {
      const refusal = refuseAtEdge({ channel: "worker" });
      if (refusal !== undefined) throw edgeError(refusal);
      super(...args);
    }
  }
  Object.defineProperty(GuardedWorker, "name", { value: "Worker" });
  patchExport("Worker", GuardedWorker);
}

/**
 * Guards child processes where every form starts one: the asynchronous ones (`spawn`, `exec`, `execFile`,
 * `fork`) through `ChildProcess.prototype.spawn`, the synchronous ones through Node's `spawn_sync` binding,
 * so a function a module took before the guard went in meets it too. A process started during a strict turn
 * is refused before it starts unless the session allows its command; tooltrace's own (a CLI agent an
 * adapter runs) start through `startingOwnProcess`. Where the binding is closed (the permission model), the
 * module's synchronous functions are replaced instead.
 */
export function guardChildProcesses(childProcess: typeof ChildProcesses, patchExport: (name: string, value: unknown) => void): void {
  const proto = childProcess.ChildProcess.prototype as unknown as Record<string, Method>;
  const spawn = proto.spawn as Method;
  proto.spawn = function guardedSpawn(this: unknown, ...args: unknown[]) {
    const options = args[0] as { file?: unknown; args?: unknown } | undefined;
    const refusal = refuseAtEdge(processTarget(options?.file, options?.args));
    if (refusal !== undefined) throw edgeError(refusal);
    return spawn.apply(this, args);
  };
  const binding = spawnSyncBinding();
  const spawnSync = binding?.spawn;
  if (binding !== undefined && typeof spawnSync === "function") {
    binding.spawn = function guardedSpawnSync(this: unknown, ...args: unknown[]) {
      const options = args[0] as { file?: unknown; args?: unknown } | undefined;
      const refusal = refuseAtEdge(processTarget(options?.file, options?.args));
      if (refusal !== undefined) throw edgeError(refusal);
      return spawnSync.apply(this, args);
    };
    return;
  }
  for (const name of ["spawnSync", "execSync", "execFileSync"] as const) {
    const original = childProcess[name] as unknown as Method;
    patchExport(name, function guardedSync(this: unknown, ...args: unknown[]) {
      const target: EdgeTarget =
        name === "execSync" && typeof args[0] === "string"
          ? { channel: "process", command: args[0], programs: programsOf(args[0]) }
          : processTarget(args[0], undefined);
      const refusal = refuseAtEdge(target);
      if (refusal !== undefined) throw edgeError(refusal);
      return original.apply(this, args);
    });
  }
}

function spawnSyncBinding(): { spawn?: Method } | undefined {
  try {
    return (process as unknown as { binding(name: string): { spawn?: Method } }).binding("spawn_sync");
  } catch {
    return undefined;
  }
}

/** What a spawn runs: the program, and for a shell's `-c` (what `exec` and `shell: true` start), every program of its script. */
function processTarget(file: unknown, args: unknown): EdgeTarget {
  const program = typeof file === "string" ? file : "unknown";
  if (!Array.isArray(args) || !SHELL.test(program)) return { channel: "process", command: program };
  const flag = args.findIndex((arg, i) => i > 0 && typeof arg === "string" && /^(-[a-z]*c[a-z]*|\/d|\/s|\/c)$/i.test(arg));
  const script = flag === -1 ? undefined : args[flag + 1];
  if (typeof script !== "string") return { channel: "process", command: program };
  return { channel: "process", command: script, programs: programsOf(script) };
}

const SHELL = /(^|[\\/])((ba|z|da|k|fi)?sh|cmd\.exe)$/i;
