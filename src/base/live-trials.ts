import { globalSingleton } from "./global-state.js";

/** One finished trial, as a watch session's live viewer shows it while the rest still run. */
export interface LiveTrial {
  readonly index: number;
  readonly seed: number;
  readonly passed: boolean;
  /** Why it failed: the error's first lines, or the sessions' violations. */
  readonly reason?: string;
}

/** What one `trials()` call sends as its trials finish, in the order they finish (at most one send each 100 ms). */
export interface LiveTrialsProgress {
  /** Which `trials()` call of the process: a test may run several, under one name. */
  readonly call: number;
  readonly name: string;
  /** How many trials were asked for. */
  readonly count: number;
  readonly minPassRate?: number;
  /** The trials finished since the last send. */
  readonly trials: readonly LiveTrial[];
}

/** Where a test's trials send their progress (the runner's test object, and what finished): set only when a live viewer reads it. */
export type LiveTrialsSink = (test: object, progress: LiveTrialsProgress) => Promise<unknown> | undefined;

/**
 * The sink of the watch session's live viewer: set by the Vitest plugin's setup file when the main process serves
 * the viewer (and the runner has a channel for it); unset, a trial sends nothing.
 */
export const liveTrials = globalSingleton("liveTrials", () => ({ sink: undefined as LiveTrialsSink | undefined, calls: 0 }));

/** What the live viewer provides the workers (`vitest.provide`): it is on, and reads the trials' progress. */
export const LIVE_VIEWER_KEY = "tooltraceLiveViewer";

/** The artifact's type: what `TooltraceReporter.onTestCaseArtifactRecord` reads, and every other reporter leaves alone. */
export const TRIALS_ARTIFACT = "tooltrace:trials";

/** The artifact a trial's progress travels in, from the test's worker to the reporter in Vitest's own process. */
export interface TrialsArtifact {
  readonly type: typeof TRIALS_ARTIFACT;
  readonly progress: LiveTrialsProgress;
}
