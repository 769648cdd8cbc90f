import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** One process: its parent, when it started (so a reused pid is never taken for it), and whether it carries the marker. */
interface ProcessEntry {
  readonly ppid: number;
  readonly start: string;
  readonly marked: boolean;
}

/**
 * Every process on the machine: `/proc` on Linux, `ps` elsewhere. With `marker` (`NAME=value`), each
 * entry says whether its environment holds it (Linux only, where `/proc` shows another process's environment).
 */
function processTable(marker?: string): Map<number, ProcessEntry> {
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
      table.set(Number(name), { ppid: Number(fields[1]), start: fields[19] ?? "", marked: marker !== undefined && holds(name, marker) });
    } catch {
      // It ended while being read.
    }
  }
  return table;
}

function holds(name: string, marker: string): boolean {
  try {
    return readFileSync(`/proc/${name}/environ`, "utf8").split("\0").includes(marker);
  } catch {
    return false; // Another user's.
  }
}

function psTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  const listed = spawnSync("ps", ["-A", "-o", "pid=,ppid=,lstart="], { encoding: "utf8" });
  for (const line of (listed.stdout ?? "").split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (match) table.set(Number(match[1]), { ppid: Number(match[2]), start: match[3] ?? "", marked: false });
  }
  return table;
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
    this.adopt(processTable());
  }

  /**
   * Signals every process the CLI started that is still alive (the same process, not a later one given its
   * pid), reading the table once more first: its newest descendants, and any process carrying the marker.
   */
  signal(signal: NodeJS.Signals): void {
    const table = processTable(this.marker);
    this.adopt(table);
    for (const [pid, entry] of table) if (entry.marked && pid !== process.pid) this.known.set(pid, entry.start);
    for (const [pid, start] of this.known) {
      if (table.get(pid)?.start !== start) continue;
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
  }

  private adopt(table: ReadonlyMap<number, ProcessEntry>): void {
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

  stop(): void {
    clearInterval(this.timer);
  }
}
