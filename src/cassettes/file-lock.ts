import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lazyRequire } from "../base/lazy-require.js";
import { writePrivate } from "../exits/out.js";

const crypto = lazyRequire<typeof import("node:crypto")>("node:crypto");
const workerThreads = lazyRequire<typeof import("node:worker_threads")>("node:worker_threads");

/** Who records into a cassette in a run: kept outside the repository, so no lock file is ever committed. */
export interface LockHolder {
  /** The process that runs the tests: Vitest's main process for its workers, else this one. */
  readonly run: number;
  /** The test file recording, and the session in it, for the message of the writer refused. */
  readonly file: string | undefined;
  readonly description: string;
}

/**
 * Claims `path` for recording by `holder` for the rest of its run: another test file of the same run (in
 * another worker, process or thread, or later in it) that records into the same path is told who has it,
 * since one recording would overwrite the other. A claim of a run that has ended is taken over; the same
 * file claiming again (a retry, a re-run in watch mode) keeps it. Returns the other holder, or `undefined`.
 */
export function claimAcrossRun(path: string, holder: Omit<LockHolder, "run">): LockHolder | undefined {
  const folder = locksFolder();
  mkdirSync(folder, { recursive: true });
  const lock = join(folder, `${crypto().createHash("sha256").update(path).digest("hex").slice(0, 32)}.json`);
  const mine: LockHolder = { ...holder, run: runProcess() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writePrivate("run locks", lock, JSON.stringify(mine), { exclusive: true });
      releasedAtExit();
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
    }
    const other = readHolder(lock);
    if (other !== undefined && alive(other.run) && other.file !== mine.file) return other;
    rmSync(lock, { force: true });
  }
  return undefined;
}

/**
 * Removes the claims of a run that has ended, so no lock file outlives it in the temporary folder. Under Vitest
 * the plugin calls it in the main process at the end of each run; a process outside a runner, at its exit.
 */
export function releaseRunClaims(run: number = process.pid): void {
  let names: string[];
  try {
    names = readdirSync(locksFolder());
  } catch {
    return;
  }
  for (const name of names) {
    const lock = join(locksFolder(), name);
    if (name.endsWith(".json") && readHolder(lock)?.run === run) rmSync(lock, { force: true });
  }
}

function locksFolder(): string {
  return join(tmpdir(), "tooltrace-cassette-locks");
}

let releasing = false;

/**
 * A process that is its own run (a script, a Jest worker, a process a test spawned) releases its claims when it
 * exits; Vitest's workers leave theirs to the run's end.
 */
function releasedAtExit(): void {
  if (releasing || !workerThreads().isMainThread || runProcess() !== process.pid) return;
  releasing = true;
  process.once("exit", () => releaseRunClaims(process.pid));
}

/**
 * Vitest's forks are child processes of its main process, joined to it by IPC; its threads live in it. A
 * process a test spawns inherits Vitest's environment but no IPC channel: it is a run of its own.
 */
function runProcess(): number {
  const fork = process.env.VITEST !== undefined && workerThreads().isMainThread && typeof process.send === "function";
  return fork ? process.ppid : process.pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(lock: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(lock, "utf8")) as LockHolder;
  } catch {
    return undefined;
  }
}
