import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";

/** The part of Vitest's state the watch trigger reads (structural: Vitest's types are not a dependency). */
export interface WatchedVitest {
  readonly state: { getFiles(): readonly WatchedTask[] };
}
/** The part of a Vitest task the watch trigger reads. */
export interface WatchedTask {
  readonly filepath?: string;
  readonly meta?: { readonly tooltrace?: TooltraceTaskMeta };
  readonly tasks?: readonly WatchedTask[];
}

/** A `watchTriggerPatterns` entry of Vitest's config. */
export interface WatchTrigger {
  readonly pattern: RegExp;
  testsToRun(file: string): string[] | undefined;
}

/**
 * Re-runs, in watch mode, the test files whose tests last replayed a cassette that was just edited. A
 * cassette that a test recorded was written by that test: its change re-runs nothing, so recording in watch
 * mode does not loop. Any other JSON file is left to Vitest (a stub fixture a test imports is in its module
 * graph already).
 */
export function cassetteWatchTrigger(vitest: () => WatchedVitest | undefined): WatchTrigger {
  return {
    pattern: /\.json$/,
    testsToRun(file) {
      const files = new Set<string>();
      for (const task of vitest()?.state.getFiles() ?? []) {
        if (task.filepath !== undefined && replays(task, file)) files.add(task.filepath);
      }
      return files.size > 0 ? [...files] : undefined;
    },
  };
}

function replays(task: WatchedTask, file: string): boolean {
  if (task.meta?.tooltrace?.sessions.some((session) => session.cassette?.mode === "replay" && samePath(session.cassette.path, file)))
    return true;
  return task.tasks?.some((child) => replays(child, file)) ?? false;
}

/** Vitest hands the watcher's paths with forward slashes. */
function samePath(a: string, b: string): boolean {
  return a.replaceAll("\\", "/") === b.replaceAll("\\", "/");
}
