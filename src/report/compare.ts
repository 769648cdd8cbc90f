import { meanScores } from "../trace/scores.js";
import { diffTraceSnapshots } from "../trace/trace-snapshot-diff.js";
import { traceSnapshot } from "../trace/trace-snapshot.js";
import { type RateChange, type RateInterval, rateChange, wilsonInterval } from "../base/pass-rate-interval.js";
import type { ReportData, ReportTest } from "./report-data.js";

/** How a test's outcome moved from the baseline run to the current one. */
export type StatusChange = "broken" | "fixed" | "added" | "removed" | "passing" | "failing" | "skipped";

/** One side of a compared test: its state and what its turns cost. */
export interface ComparedSide {
  readonly id: string;
  readonly state: ReportTest["state"];
  /** Tokens its sessions' turns used. */
  readonly tokens: number;
  /** Its sessions' turns' time end to end (the test's own duration when it ran no session). */
  readonly durationMs: number;
  /** Trials passed over trials run, summed over its `trials()` runs, when it ran any. */
  readonly trials?: { readonly passed: number; readonly count: number; readonly interval: RateInterval };
  /** Each judge's mean score over its sessions' turns, by judge name, when a judge scored any. */
  readonly scores?: Readonly<Record<string, number>>;
  /** What its calls to a real model cost (USD), when a priced call was made. */
  readonly costUsd?: number;
}

/** One test in both runs (or in one of them). */
export interface ComparedTest {
  readonly file: string;
  readonly name: string;
  readonly status: StatusChange;
  readonly baseline?: ComparedSide;
  readonly current?: ComparedSide;
  /** The pass rate's change over trials, with its 95% interval, when both runs ran trials. */
  readonly passRate?: RateChange;
  /** The structural trajectory diff per session (a trace snapshot's diff), for sessions whose path changed. */
  readonly trajectory: readonly { readonly session: string; readonly diff: string }[];
}

/** Two runs compared test by test. */
export interface Comparison {
  readonly tests: readonly ComparedTest[];
  readonly counts: Readonly<Record<StatusChange, number>> & { readonly trajectoryChanged: number };
}

/** Compares a baseline run with the current one: tests matched by file and full name. */
export function compareReports(baseline: ReportData, current: ReportData): Comparison {
  const before = byKey(baseline.tests);
  const after = byKey(current.tests);
  const keys = [...after.keys(), ...[...before.keys()].filter((key) => !after.has(key))];
  const tests = keys.map((key) => compareTest(before.get(key), after.get(key)));
  const counts = { broken: 0, fixed: 0, added: 0, removed: 0, passing: 0, failing: 0, skipped: 0, trajectoryChanged: 0 };
  for (const test of tests) {
    counts[test.status] += 1;
    if (test.trajectory.length > 0) counts.trajectoryChanged += 1;
  }
  return { tests, counts };
}

/** Whether a compared test changed in a way a reviewer looks at: status, a significant pass rate, its path. */
export function isChanged(test: ComparedTest): boolean {
  return (
    (test.status !== "passing" && test.status !== "failing" && test.status !== "skipped") ||
    test.passRate?.significant === true ||
    test.trajectory.length > 0
  );
}

function byKey(tests: readonly ReportTest[]): Map<string, ReportTest> {
  return new Map(tests.map((test) => [`${test.file}\u0000${test.fullName}`, test]));
}

function compareTest(before: ReportTest | undefined, after: ReportTest | undefined): ComparedTest {
  const either = (after ?? before) as ReportTest;
  const baseline = before && side(before);
  const current = after && side(after);
  const passRate = baseline?.trials && current?.trials ? rateChange(baseline.trials.interval, current.trials.interval) : undefined;
  return {
    file: either.file,
    name: either.fullName,
    status: statusChange(before, after),
    ...(baseline ? { baseline } : {}),
    ...(current ? { current } : {}),
    ...(passRate ? { passRate } : {}),
    trajectory: before && after ? trajectoryDiffs(before, after) : [],
  };
}

function statusChange(before: ReportTest | undefined, after: ReportTest | undefined): StatusChange {
  if (before === undefined) return "added";
  if (after === undefined) return "removed";
  if (after.state === "failed") return before.state === "passed" ? "broken" : "failing";
  if (after.state === "passed") return before.state === "failed" ? "fixed" : "passing";
  return "skipped";
}

function side(test: ReportTest): ComparedSide {
  const turns = (test.meta?.sessions ?? []).flatMap((session) => session.turns);
  const runs = test.meta?.trials ?? [];
  const passed = runs.reduce((sum, run) => sum + run.passed, 0);
  const count = runs.reduce((sum, run) => sum + run.count, 0);
  const scores = meanScores(turns);
  return {
    id: test.id,
    state: test.state,
    tokens: turns.reduce((sum, turn) => sum + (turn.usage?.totalTokens ?? 0), 0),
    durationMs: turns.length > 0 ? turns.reduce((sum, turn) => sum + (turn.durationMs ?? 0), 0) : (test.durationMs ?? 0),
    ...(count > 0 ? { trials: { passed, count, interval: wilsonInterval(passed, count) } } : {}),
    ...(Object.keys(scores).length > 0 ? { scores } : {}),
    ...(test.meta?.cost?.costUsd !== undefined ? { costUsd: test.meta.cost.costUsd } : {}),
  };
}

function trajectoryDiffs(before: ReportTest, after: ReportTest): { session: string; diff: string }[] {
  const sessions = (test: ReportTest) => new Map((test.meta?.sessions ?? []).map((session, i) => [`${session.name}#${i}`, session]));
  const old = sessions(before);
  const now = sessions(after);
  const diffs: { session: string; diff: string }[] = [];
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    const a = traceSnapshot(old.get(key)?.turns ?? []);
    const b = traceSnapshot(now.get(key)?.turns ?? []);
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    diffs.push({ session: key.slice(0, key.lastIndexOf("#")), diff: diffTraceSnapshots(a, b) });
  }
  return diffs;
}
