import { wilsonInterval } from "../base/pass-rate-interval.js";
import { percent } from "../base/percent.js";
import { runFlags } from "../base/run-flags.js";
import { message, usageError } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import { formatUsd } from "../trace/cost.js";
import type { Trial, TrialsOptions, TrialsReport } from "./trials.js";

/** What a trial of a model matrix gets: its trial, and the model to build the agent with. */
export interface ModelTrial extends Trial {
  readonly model: string;
}

/** One model's row of a {@link ModelMatrixReport}. */
export interface ModelRow {
  readonly model: string;
  /** The model's trials, as `trials()` reports them (named `<name> [<model>]` in the test's reports). */
  readonly report: TrialsReport;
  /** The pass rate's 95% interval (Wilson's). */
  readonly low: number;
  readonly high: number;
  /** The median of its trials' durations. */
  readonly medianMs: number;
}

/** What `trials(count, { models }, run)` found: each model's trials, side by side. */
export interface ModelMatrixReport {
  readonly models: readonly ModelRow[];
  /** Whether every model reached `minPassRate` (true without one). */
  readonly ok: boolean;
  /** The models side by side, as printed. */
  summary(): string;
}

type RunTrials = (count: number, options: TrialsOptions, run: (trial: Trial) => unknown) => Promise<TrialsReport>;

/**
 * The same eval over several models: `count` trials per model with the same seeds, one model after another, each
 * model's trials reported as a `trials()` run of their own; a budget is shared (what one model spent, the next
 * cannot). Below `minPassRate` for any model, the test fails naming the models, with the table.
 */
export async function modelMatrix(
  runTrials: RunTrials,
  count: number,
  options: TrialsOptions & { readonly models: readonly string[] },
  run: (trial: ModelTrial) => unknown,
  testName: string | undefined,
): Promise<ModelMatrixReport> {
  const { models, ...rest } = options;
  const bad = models.findIndex((model) => typeof model !== "string" || model === "");
  if (models.length === 0 || bad !== -1 || new Set(models).size !== models.length)
    throw usageError(
      `trials(count, { models }): ${models.length === 0 ? "no models" : bad !== -1 ? `models[${bad}] is not a model id` : "a model twice"}.`,
      'name each model once: models: ["gpt-4o-mini", "gpt-4o"].',
    );
  const name = rest.name ?? testName ?? "trials";
  let left = rest.budgetUsd;
  const rows: ModelRow[] = [];
  for (const model of models) {
    const budget = left === undefined ? {} : { budgetUsd: Math.max(0, left) };
    const report = await runTrials(count, { ...rest, ...budget, name: `${name} [${model}]`, failTest: false, print: false }, (trial) =>
      run({ ...trial, model }),
    );
    if (left !== undefined) left -= report.costUsd ?? 0;
    const { low, high } = wilsonInterval(report.passed, report.ran);
    rows.push({ model, report, low, high, medianMs: median(report.runs.map((trial) => trial.durationMs)) });
  }
  const failing = rows.filter((row) => !row.report.ok);
  const result: ModelMatrixReport = { models: rows, ok: failing.length === 0, summary: () => table(name, rows) };
  if (failing.length > 0 && rest.failTest !== false)
    throw new Error(
      message(
        `trials over ${rows.length} models: ${failing.map((row) => row.model).join(", ")} below minPassRate ${percent(rest.minPassRate ?? 0)}.\n${result.summary()}`,
      ),
    );
  const said = rows.some((row) => row.report.passed < row.report.ran || row.report.stoppedByBudget === true) || runFlags.verbose;
  if (rest.print === true || (rest.print === undefined && said)) printOut("console", result.summary(), "log");
  return result;
}

/** The models side by side: pass rate with its interval, judges' mean scores, cost, median latency. */
function table(name: string, rows: readonly ModelRow[]): string {
  const judges = [...new Set(rows.flatMap((row) => Object.keys(row.report.scores ?? {})))].sort();
  const head = ["model", "pass rate (95% CI)", ...judges.map((judge) => `score ${judge}`), "cost", "median latency"];
  const body = rows.map((row) => {
    const { report } = row;
    const budget = report.stoppedByBudget ? ` (budget: ${report.ran} of ${report.count} ran)` : "";
    return [
      row.model,
      `${report.passed}/${report.ran} ${percent(report.passRate)} (${percent(row.low)}–${percent(row.high)})${report.ok ? "" : " ✗"}${budget}`,
      ...judges.map((judge) => report.scores?.[judge]?.toFixed(2) ?? "–"),
      report.costUsd === undefined ? "–" : formatUsd(report.costUsd),
      `${Math.round(row.medianMs)} ms`,
    ];
  });
  const widths = head.map((cell, i) => Math.max(cell.length, ...body.map((line) => (line[i] ?? "").length)));
  const line = (cells: readonly string[]) => `  ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ")}`.trimEnd();
  return [`▶ ${name}: ${rows.length} models`, line(head), ...body.map(line)].join("\n");
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
