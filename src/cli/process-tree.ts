import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** One process: its parent, and when it started (so a reused pid is never taken for it). */
interface ProcessEntry {
  readonly ppid: number;
  readonly start: string;
}

/** Every process on the machine: `/proc` on Linux, `ps` elsewhere. */
function processTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  let names: string[];
  try {
    names = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return psTable();
  }
  for (const name of names) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name, in parentheses, may hold spaces: the fields after it are positional.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(name), { ppid: Number(fields[1]), start: fields[19] ?? "" });
    } catch {
      // It ended while being read.
    }
  }
  return table;
}

function psTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  const listed = spawnSync("ps", ["-A", "-o", "pid=,ppid=,lstart="], { encoding: "utf8" });
  for (const line of (listed.stdout ?? "").split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (match) table.set(Number(match[1]), { ppid: Number(match[2]), start: match[3] ?? "" });
  }
  return table;
}

/** The processes whose environment holds `marker` (`NAME=value`): Linux only, where `/proc` shows it. */
function marked(marker: string): Map<number, string> {
  const found = new Map<number, string>();
  let names: string[];
  try {
    names = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const name of names) {
    try {
      if (!readFileSync(`/proc/${name}/environ`, "utf8").split("\0").includes(marker)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      found.set(Number(name), stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "");
    } catch {
      // Another user's, or it ended while read.
    }
  }
  return found;
}

/**
 * The processes a CLI started, however they detached: its descendants are read while it runs (and once more
 * before it is stopped), so one that moved into a session of its own (`setsid`, a `detached` spawn) and
 * outlived its parent is still known, and killed with the rest; at the kill, any process that inherited the
 * run's `marker` variable is too (one whose parent ended before it was seen).
 */
export class ProcessTree {
  private readonly known = new Map<number, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    private readonly marker?: string,
  ) {
    this.timer = setInterval(() => this.update(), 250);
    this.timer.unref();
  }

  /** Reads the process table: every descendant of the root, or of a process known before, is known from now on. */
  update(): void {
    const table = processTable();
    const rootEntry = table.get(this.root);
    if (rootEntry !== undefined && !this.known.has(this.root)) this.known.set(this.root, rootEntry.start);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, entry] of table) {
        if (this.known.has(pid) || !this.known.has(entry.ppid)) continue;
        if (table.get(entry.ppid)?.start !== this.known.get(entry.ppid)) continue;
        this.known.set(pid, entry.start);
        grew = true;
      }
    }
  }

  /** Signals every known process still alive (the same process, not a later one given its pid). */
  signal(signal: NodeJS.Signals): void {
    if (this.marker !== undefined) for (const [pid, start] of marked(this.marker)) if (pid !== process.pid) this.known.set(pid, start);
    const table = processTable();
    for (const [pid, start] of this.known) {
      if (table.get(pid)?.start !== start) continue;
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
