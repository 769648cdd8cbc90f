import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ReportedCase, ReportedModule } from "tooltrace/reporter";
import { ReportRuns } from "../../src/report/report-runs.js";

const root = mkdtempSync(join(tmpdir(), "tooltrace-runs-"));
const project = { name: "", config: { root } };

/** A Vitest test module as the reporter sees it: one file on disk, its tests by name and state. */
function moduleOf(name: string, tests: Record<string, string>): ReportedModule {
  const moduleId = join(root, name);
  writeFileSync(moduleId, "");
  const module = { moduleId, project };
  const cases: ReportedCase[] = Object.entries(tests).map(([fullName, state]) => ({
    id: `${name}#${fullName}`,
    fullName,
    module,
    meta: () => ({}),
    result: () => ({ state, errors: [] }),
    diagnostic: () => ({ duration: 1 }),
  }));
  return { moduleId, project, children: { allTests: () => cases } };
}

test("a rerun keeps the files that did not rerun, marked with their run's time; a deleted file drops out", () => {
  const runs = new ReportRuns();
  const a = moduleOf("a.eval.ts", { "a one": "passed", "a two": "passed" });
  const b = moduleOf("b.eval.ts", { "b one": "passed" });
  const first = runs.record([a, b], "2026-01-01T00:00:00.000Z", 100);
  expect(first.tests.map((t) => t.fromRun)).toEqual([undefined, undefined, undefined]);

  const second = runs.record([moduleOf("b.eval.ts", { "b one": "failed" })], "2026-01-01T00:01:00.000Z", 50);
  expect(second.tests.map((t) => [t.fullName, t.state, t.fromRun])).toEqual([
    ["a one", "passed", "2026-01-01T00:00:00.000Z"],
    ["a two", "passed", "2026-01-01T00:00:00.000Z"],
    ["b one", "failed", undefined],
  ]);
  expect(second.history).toEqual([
    { at: "2026-01-01T00:00:00.000Z", tests: 3, failed: 0, durationMs: 100 },
    { at: "2026-01-01T00:01:00.000Z", tests: 3, failed: 1, durationMs: 50 },
  ]);

  rmSync(join(root, "a.eval.ts"));
  const third = runs.record([moduleOf("b.eval.ts", { "b one": "passed" })], "2026-01-01T00:02:00.000Z", 40);
  expect(third.tests.map((t) => t.fullName)).toEqual(["b one"]);
  expect(third.history.at(-1)).toMatchObject({ tests: 1, failed: 0 });
});

test("the history keeps the last 20 runs, after those the folder's report already listed", () => {
  const earlier = Array.from({ length: 25 }, (_, i) => ({ at: `earlier ${i}`, tests: 1, failed: 0, durationMs: 1 }));
  const runs = new ReportRuns(earlier);
  const b = moduleOf("b.eval.ts", { "b one": "passed" });
  let history = runs.record([b], "now 0", 1).history;
  expect(history).toHaveLength(20);
  expect(history[0]?.at).toBe("earlier 6");
  expect(history.at(-1)?.at).toBe("now 0");
  for (let i = 1; i <= 20; i++) history = runs.record([b], `now ${i}`, 1).history;
  expect(history.map((run) => run.at)).toEqual(Array.from({ length: 20 }, (_, i) => `now ${i + 1}`));
});

test("a new run's report lists the runs of the report it replaces in the same folder", async () => {
  const { TooltraceReporter, readReport } = await import("tooltrace/reporter");
  const outputDir = join(root, "report");
  const b = moduleOf("b.eval.ts", { "b one": "passed" });
  for (let i = 0; i < 2; i++) {
    const reporter = new TooltraceReporter({ outputDir });
    reporter.onTestRunStart();
    await reporter.onTestRunEnd([b]);
  }
  const data = readReport(outputDir);
  expect(data.history).toHaveLength(2);
  expect(data.tests.map((t) => t.fromRun)).toEqual([undefined]);
});

test("a rerun of one test (focus) keeps its file's other tests as they were, not as the skipped Vitest reports", () => {
  const runs = new ReportRuns();
  runs.record([moduleOf("f.eval.ts", { asked: "passed", other: "failed", off: "skipped" })], "2026-01-01T00:00:00.000Z", 10);
  const rerun = moduleOf("f.eval.ts", { asked: "failed", other: "skipped", off: "skipped" });
  const after = runs.record([rerun], "2026-01-01T00:01:00.000Z", 5, new Set(["f.eval.ts#asked"]));
  expect(after.tests.map((t) => [t.fullName, t.state, t.fromRun])).toEqual([
    ["asked", "failed", undefined],
    ["other", "failed", "2026-01-01T00:00:00.000Z"],
    ["off", "skipped", "2026-01-01T00:00:00.000Z"],
  ]);
  // Without a focus, a file's skipped tests are its result.
  const whole = runs.record([moduleOf("f.eval.ts", { asked: "passed", other: "skipped", off: "skipped" })], "2026-01-01T00:02:00.000Z", 5);
  expect(whole.tests.map((t) => [t.state, t.fromRun])).toEqual([
    ["passed", undefined],
    ["skipped", undefined],
    ["skipped", undefined],
  ]);
});
