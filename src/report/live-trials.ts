import { type LiveTrial, type LiveTrialsProgress, TRIALS_ARTIFACT } from "../base/live-trials.js";
import { wilsonInterval } from "../base/pass-rate-interval.js";

/** One `trials()` call of a running test as the live page shows it: the trials finished so far. */
export interface TrialsSoFar {
  readonly name: string;
  readonly count: number;
  /** How many have finished, passed and failed so far. */
  readonly done: number;
  readonly passed: number;
  readonly failed: number;
  /** The pass rate so far, with its 95% interval (Wilson's): what the trials still to come may move it to. */
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  readonly minPassRate?: number;
  /** The trials finished, in the order they finished. */
  readonly runs: readonly LiveTrial[];
}

/** The progress an artifact carries, when it is one of `trials()`'s (`tooltrace:trials`) and well formed. */
export function trialsProgressOf(artifact: unknown): LiveTrialsProgress | undefined {
  const { type, progress } = (artifact ?? {}) as { type?: unknown; progress?: Partial<LiveTrialsProgress> };
  if (type !== TRIALS_ARTIFACT || progress === undefined || progress === null) return undefined;
  const { call, name, count, trials } = progress;
  if (typeof call !== "number" || typeof name !== "string" || typeof count !== "number" || !Array.isArray(trials)) return undefined;
  if (!trials.every((trial: Partial<LiveTrial>) => typeof trial?.index === "number" && typeof trial.passed === "boolean")) return undefined;
  return progress as LiveTrialsProgress;
}

/** One `trials()` call's trials so far, each once. */
type Call = { readonly progress: LiveTrialsProgress; readonly runs: LiveTrial[]; readonly seen: Set<number> };

/** The trials of the tests that are running, by test id: each `trials()` call's, in the order they began. */
export class RunningTrials {
  private readonly tests = new Map<string, Map<number, Call>>();

  /** Trials of `testId` finished: the test's trials so far. */
  add(testId: string, progress: LiveTrialsProgress): TrialsSoFar[] {
    const calls = this.tests.get(testId) ?? new Map<number, Call>();
    this.tests.set(testId, calls);
    const call = calls.get(progress.call) ?? { progress, runs: [], seen: new Set<number>() };
    calls.set(progress.call, call);
    for (const trial of progress.trials) {
      if (call.seen.has(trial.index)) continue;
      call.seen.add(trial.index);
      call.runs.push(trial);
    }
    return [...calls.values()].map(({ progress: { name, count, minPassRate }, runs }) => {
      const passed = runs.filter((run) => run.passed).length;
      const { rate, low, high } = wilsonInterval(passed, runs.length);
      const min = minPassRate !== undefined ? { minPassRate } : {};
      return { name, count, done: runs.length, passed, failed: runs.length - passed, rate, low, high, ...min, runs };
    });
  }

  /** The test started again, or its result arrived: what it had so far is gone. */
  clear(testId: string): void {
    this.tests.delete(testId);
  }
}
