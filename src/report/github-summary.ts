import { globalSingleton } from "../base/global-state.js";
import { compareReports } from "./compare.js";
import { comparisonMarkdown } from "./compare-markdown.js";
import { readReport } from "./read-report.js";
import { type ReportedModule, type ReportTest, reportCounts, reportData, reportTests, runCost } from "./report-data.js";
import { costText } from "../trace/cost.js";
import { percent } from "../base/percent.js";
import { markdownText } from "../exits/escape.js";
import { appendOut } from "../exits/out.js";

/** The totals of a run's evals: tests by state, and what their sessions did. */
function totals(tests: readonly ReportTest[]) {
  let toolCalls = 0;
  let modelCalls = 0;
  let tokens = 0;
  let sessions = 0;
  for (const test of tests) {
    for (const session of test.meta?.sessions ?? []) {
      sessions += 1;
      for (const turn of session.turns) {
        toolCalls += turn.toolCalls.length;
        modelCalls += turn.modelCalls.length;
        tokens += turn.usage.totalTokens;
      }
    }
  }
  const { passed, failed } = reportCounts(tests);
  return { passed, failed, sessions, toolCalls, modelCalls, tokens };
}

const cell = markdownText;

/**
 * The run as a GitHub Actions job summary: totals, the pass rate, and a row per test file (its tests,
 * passed, tool calls, model calls, tokens); the failed evals listed by name; with `TOOLTRACE_BASELINE` set, the
 * comparison with that run. Markdown, appended to `file`.
 */
export function writeGithubSummary(file: string, tests: readonly ReportTest[], runModules?: object): void {
  // The viewer's reporter and the plugin's summary writer may both be in one run: the run gets one summary.
  if (runModules !== undefined) {
    if (summarized.has(runModules)) return;
    summarized.add(runModules);
  }
  const all = totals(tests);
  const run = all.passed + all.failed;
  const rate = run === 0 ? "–" : `${Math.round((all.passed / run) * 1000) / 10}%`;
  // What the calls to a real model cost, in a column of its own when any was made.
  const spent = Object.keys(runCost(tests)).length > 0;
  const cost = (inTests: readonly ReportTest[]) => (spent ? ` ${cell(costText(runCost(inTests)) || "–")} |` : "");
  const costHead = spent ? [" cost |", " ---: |"] : ["", ""];
  const lines = [
    "## tooltrace",
    "",
    `| tests | passed | failed | pass rate | sessions | tool calls | model calls | tokens |${costHead[0]}`,
    `| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${costHead[1]}`,
    `| ${reportCounts(tests).tests} | ${all.passed} | ${all.failed} | ${rate} | ${all.sessions} | ${all.toolCalls} | ${all.modelCalls} | ${all.tokens} |${cost(tests)}`,
    "",
    `| file | tests | passed | tool calls | model calls | tokens |${costHead[0]}`,
    `| --- | ---: | ---: | ---: | ---: | ---: |${costHead[1]}`,
  ];
  const byFile = new Map<string, ReportTest[]>();
  for (const test of tests) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);
  for (const [file, inFile] of byFile) {
    const t = totals(inFile);
    const count = inFile.filter((test) => !test.fileErrors).length;
    lines.push(`| ${cell(file)} | ${count} | ${t.passed} | ${t.toolCalls} | ${t.modelCalls} | ${t.tokens} |${cost(inFile)}`);
  }
  const trials = tests.flatMap((test) => (test.meta?.trials ?? []).map((report) => ({ test, report })));
  if (trials.length > 0) {
    lines.push(
      "",
      `| eval | trials | passed | pass rate | min | pass^k |${costHead[0]}`,
      `| --- | ---: | ---: | ---: | ---: | --- |${costHead[1]}`,
    );
    for (const { test, report } of trials) {
      const hat = Object.entries(report.passHatK)
        .map(([k, value]) => `pass^${k} ${value.toFixed(2)}`)
        .join(", ");
      const min = report.minPassRate === undefined ? "–" : percent(report.minPassRate);
      lines.push(
        `| ${cell(test.fullName)} | ${report.count} | ${report.passed} | ${percent(report.passRate)}${report.ok ? "" : " ✗"} | ${min} | ${hat} |${cost([test])}`,
      );
    }
  }
  const failing = tests.filter((test) => test.state === "failed");
  if (failing.length > 0) {
    lines.push("", "Failed evals:", "");
    for (const test of failing)
      lines.push(
        `- ${cell(test.fileErrors ? `${test.file} ${test.fullName}` : test.fullName)}: ${cell((test.errors[0] ?? "").split("\n")[0] ?? "")}`,
      );
  }
  const baseline = process.env.TOOLTRACE_BASELINE;
  if (baseline) lines.push("", againstBaseline(baseline, tests));
  appendOut("job summary", file, `${lines.join("\n")}\n`);
}

/** `TOOLTRACE_BASELINE` (a baseline run's report): this run compared with it, or why it could not be. */
function againstBaseline(baseline: string, tests: readonly ReportTest[]): string {
  try {
    return comparisonMarkdown(compareReports(readReport(baseline), reportData(tests)));
  } catch (error) {
    return `tooltrace could not compare with the baseline: ${cell((error as Error).message)}`;
  }
}

const summarized = globalSingleton("githubSummaries", () => new WeakSet<object>());

/** Added by the plugin on GitHub Actions (`GITHUB_ACTIONS`): the job summary, without the viewer's files. */
export function githubSummaryReporter(): { onTestRunEnd(modules: readonly ReportedModule[]): void } {
  return {
    onTestRunEnd(modules) {
      const file = process.env.GITHUB_STEP_SUMMARY;
      if (!file) return;
      writeGithubSummary(file, reportTests(modules), modules);
    },
  };
}
