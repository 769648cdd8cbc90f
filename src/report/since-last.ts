import { type ComparedSide, compareReports } from "./compare.js";
import { type ReportData, type ReportTest, reportData, type TestChange, type TestRunSide } from "./report-data.js";

/**
 * Each test of a run with what changed since its previous run, from `previous` (the report the folder held, or
 * the reporter's last one in watch mode), by the comparison of two runs. A test that reran gets a change when
 * its state, tool sequence, judges' scores or tokens moved (latency alone is noise and is kept only alongside);
 * a test kept from an earlier run keeps the change it had then; a test `previous` does not hold gets none.
 */
export function withSinceLast(tests: readonly ReportTest[], previous: ReportData | undefined): ReportTest[] {
  if (previous === undefined) return tests.map(withoutChange);
  const earlier = new Map(previous.tests.map((test) => [keyOf(test), test]));
  const rerun = tests.filter((test) => test.fromRun === undefined && !test.fileErrors);
  const baseline = reportData(rerun.flatMap((test) => earlier.get(keyOf(test)) ?? []).map(withoutChange));
  const compared = new Map(
    compareReports(baseline, reportData(rerun.map(withoutChange))).tests.map((test) => [`${test.file}\u0000${test.name}`, test]),
  );
  return tests.map((test) => {
    const plain = withoutChange(test);
    if (test.fromRun !== undefined) {
      const kept = earlier.get(keyOf(test))?.sinceLast;
      return kept ? { ...plain, sinceLast: kept } : plain;
    }
    const found = compared.get(keyOf(test));
    if (!found?.baseline || !found.current) return plain;
    const change: TestChange = { before: side(found.baseline), after: side(found.current), trajectory: found.trajectory };
    return changed(change) ? { ...plain, sinceLast: change } : plain;
  });
}

function keyOf(test: ReportTest): string {
  return `${test.file}\u0000${test.fullName}`;
}

function withoutChange(test: ReportTest): ReportTest {
  if (test.sinceLast === undefined) return test;
  const { sinceLast: _, ...rest } = test;
  return rest;
}

function side(compared: ComparedSide): TestRunSide {
  const { state, tokens, durationMs, scores } = compared;
  return { state, tokens, durationMs, ...(scores ? { scores } : {}) };
}

function changed({ before, after, trajectory }: TestChange): boolean {
  return (
    before.state !== after.state ||
    trajectory.length > 0 ||
    before.tokens !== after.tokens ||
    JSON.stringify(before.scores ?? {}) !== JSON.stringify(after.scores ?? {})
  );
}
