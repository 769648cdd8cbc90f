import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ReportedCase, ReportedModule } from "tooltrace/reporter";

const root = mkdtempSync(join(tmpdir(), "tooltrace-since-"));
const project = { name: "", config: { root } };

/** A turn's JSON as the report keeps it: these tools called in order, these tokens used, a judge's score. */
function turn(tools: readonly string[], tokens: number, score: number) {
  const toolCalls = tools.map((tool, seq) => ({
    kind: "tool",
    seq,
    id: `c${seq}`,
    qualifiedName: tool,
    tool,
    input: {},
    output: "ok",
    status: "completed",
    answeredBy: { kind: "stub", ruleId: tool, outcomeIndex: 0 },
    durationMs: 1,
  }));
  return {
    index: 0,
    userMessage: "book a flight",
    text: "done",
    status: "completed",
    durationMs: 200,
    usage: { inputTokens: tokens, outputTokens: 0, totalTokens: tokens },
    toolCalls,
    modelCalls: [],
    httpCalls: [],
    violations: [],
    scores: [{ judge: "answer", score, threshold: 0.5, pass: score >= 0.5 }],
  };
}

/** A test module as the reporter sees it, its tests by name: each with its state and its one session's turn. */
function moduleOf(tests: Record<string, { state: string; turn: ReturnType<typeof turn> }>, name = "flights.eval.ts"): ReportedModule {
  const moduleId = join(root, name);
  writeFileSync(moduleId, "");
  const module = { moduleId, project };
  const cases: ReportedCase[] = Object.entries(tests).map(([fullName, { state, turn }]) => ({
    id: fullName,
    fullName,
    module,
    meta: () => ({ tooltrace: { version: 2, sessions: [{ name: "agent", strict: false, turns: [turn], violations: [] }] } }),
    result: () => ({ state, errors: state === "failed" ? [{ message: "expected a booking" }] : [] }),
    diagnostic: () => ({ duration: 5 }),
  }));
  return { moduleId, project, children: { allTests: () => cases } };
}

async function runInto(outputDir: string, module: ReportedModule): Promise<void> {
  const { TooltraceReporter } = await import("tooltrace/reporter");
  const reporter = new TooltraceReporter({ outputDir });
  reporter.onTestRunStart();
  await reporter.onTestRunEnd([module]);
}

test("a second run into the same folder carries, per test, what changed since the first; an unchanged test none", async () => {
  const { readReport } = await import("tooltrace/reporter");
  const outputDir = join(root, "report");
  const steady = { state: "passed", turn: turn(["search"], 100, 0.9) };
  await runInto(outputDir, moduleOf({ books: { state: "failed", turn: turn(["search", "cancel"], 1234, 0.4) }, steady }));
  expect(readReport(outputDir).tests.map((t) => t.sinceLast)).toEqual([undefined, undefined]);

  await runInto(outputDir, moduleOf({ books: { state: "passed", turn: turn(["search", "book"], 980, 0.8) }, steady }));
  const data = readReport(outputDir);
  const books = data.tests.find((t) => t.fullName === "books");
  expect(books?.sinceLast).toMatchObject({
    before: { state: "failed", tokens: 1234, durationMs: 200, scores: { answer: 0.4 } },
    after: { state: "passed", tokens: 980, durationMs: 200, scores: { answer: 0.8 } },
  });
  expect(books?.sinceLast?.trajectory).toHaveLength(1);
  expect(books?.sinceLast?.trajectory[0]?.session).toBe("agent");
  expect(books?.sinceLast?.trajectory[0]?.diff).toMatch(/cancel/);
  expect(books?.sinceLast?.trajectory[0]?.diff).toMatch(/book/);
  expect(data.tests.find((t) => t.fullName === "steady")?.sinceLast).toBeUndefined();
});

test("in watch mode the reporter compares each rerun with its own last report", async () => {
  const { TooltraceReporter, readReport } = await import("tooltrace/reporter");
  const outputDir = join(root, "watch");
  const reporter = new TooltraceReporter({ outputDir });
  for (const state of ["passed", "failed"]) {
    reporter.onTestRunStart();
    await reporter.onTestRunEnd([moduleOf({ books: { state, turn: turn(["search"], 10, 0.9) } })]);
  }
  const [books] = readReport(outputDir).tests;
  expect(books?.sinceLast).toMatchObject({ before: { state: "passed" }, after: { state: "failed" }, trajectory: [] });

  // Only another file reruns: the test kept from the earlier run keeps the change it had then.
  reporter.onTestRunStart();
  await reporter.onTestRunEnd([moduleOf({ other: { state: "passed", turn: turn([], 1, 1) } }, "other.eval.ts")]);
  const kept = readReport(outputDir).tests.find((t) => t.fullName === "books");
  expect(kept?.fromRun).toBeDefined();
  expect(kept?.sinceLast).toMatchObject({ before: { state: "passed" }, after: { state: "failed" } });
});

test("a report whose change since the last run is of another type is refused, naming where", async () => {
  const { readReport } = await import("tooltrace/reporter");
  const file = join(root, "bad.json");
  const side = { state: "passed", tokens: "<b>1</b>", durationMs: 1 };
  const sinceLast = { before: side, after: side, trajectory: [] };
  writeFileSync(file, JSON.stringify({ tests: [{ id: "a", file: "a.ts", fullName: "a", state: "passed", errors: [], sinceLast }] }));
  expect(() => readReport(file)).toThrow(/\/tests\/0\/sinceLast\/before\/tokens/);
});
