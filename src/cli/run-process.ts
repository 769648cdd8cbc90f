import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { startingOwnProcess } from "../edges/edge-decision.js";
import { ProcessTree } from "./process-tree.js";

/** How a CLI run ended. */
export interface ProcessResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** At most this much of each stream is kept (a CLI's JSON output is far smaller). */
const MAX_OUTPUT = 8 * 1024 * 1024;

/**
 * Runs `command` in its own process group, with `stdin` as its input (or none). When `signal` aborts, the whole group is killed
 * (SIGTERM, then SIGKILL after a grace period), and every process the CLI started, also one that left the
 * group for a session of its own, so a CLI that hangs, and whatever it started, stops. When the CLI ends,
 * whatever it left running goes too.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; signal: AbortSignal; stdin?: string },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    // The CLI under test is tooltrace's own process: strict mode's process guard lets it start.
    const marker = `TOOLTRACE_PROCESS_TREE=${process.pid}-${randomUUID()}`;
    const child = startingOwnProcess(() =>
      spawn(command, args, {
        cwd: options.cwd,
        env: { ...options.env, TOOLTRACE_PROCESS_TREE: marker.slice(marker.indexOf("=") + 1) },
        detached: true,
        stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      }),
    );
    // A CLI that exits before reading its input must not crash the test worker with EPIPE: its exit code says it.
    child.stdin?.on("error", () => undefined);
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout = (stdout + chunk).slice(-MAX_OUTPUT)));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-MAX_OUTPUT)));
    const tree = child.pid === undefined ? undefined : new ProcessTree(child.pid, marker);
    const killGroup = (signal: NodeJS.Signals) => {
      // The tree is read before the group goes, while the CLI's newest children still have it as their parent.
      tree?.signal(signal);
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    let grace: NodeJS.Timeout | undefined;
    const onAbort = () => {
      killGroup("SIGTERM");
      grace = setTimeout(() => killGroup("SIGKILL"), 2_000);
      grace.unref();
    };
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener("abort", onAbort, { once: true });
    // A process the CLI left in the background keeps the pipes open, and `close` would wait for it.
    child.once("exit", () => {
      const linger = setTimeout(() => killGroup("SIGKILL"), 500);
      linger.unref();
    });
    child.once("error", (error) => {
      tree?.stop();
      options.signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.once("close", (code, signal) => {
      options.signal.removeEventListener("abort", onAbort);
      if (grace !== undefined) clearTimeout(grace);
      // Anything the CLI left running, in its group or not, goes too.
      killGroup("SIGKILL");
      tree?.stop();
      resolve({ code, signal, stdout, stderr });
    });
  });
}
