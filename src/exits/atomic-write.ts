import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { lazyRequire } from "../base/lazy-require.js";

// Loaded when a cassette is first written: most test files never write one.
const crypto = lazyRequire<typeof import("node:crypto")>("node:crypto");
const workerThreads = lazyRequire<typeof import("node:worker_threads")>("node:worker_threads");

/**
 * Writes `text` to `path` through a temporary file renamed over it, so a crash never leaves half a file, and
 * clears the temporary files that writers killed mid-save left beside it.
 */
export function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  removeAbandoned(path);
  // Worker threads share a pid: the thread and a random part keep their temporary files apart.
  const temporary = `${path}.${process.pid}.${workerThreads().threadId}-${crypto().randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** A temporary file this old is no save under way, whatever its pid says (another machine's, another container's). */
const ABANDONED_AFTER_MS = 60_000;

/** Removes temporary files beside `path` whose writer is gone (the pid in their name) or that are long stale: a writer killed mid-save. */
function removeAbandoned(path: string): void {
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dirname(path))) {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[\w-]+\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined) continue;
    const file = join(dirname(path), name);
    let age: number;
    try {
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      continue;
    }
    if (age > ABANDONED_AFTER_MS || (!isAlive(Number(pid)) && Number(pid) !== process.pid)) rmSync(file, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
