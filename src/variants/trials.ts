import { meanScores } from "../trace/scores.js";
import { divergenceLines, divergenceTree } from "../trace/divergence-tree.js";
import { stripVTControlCharacters } from "node:util";
import { message, usageError } from "../exits/errors.js";
import { noWorkflowCommands } from "../exits/excerpt.js";
import { runFlags } from "../base/run-flags.js";
import { seededRandom } from "../base/seeded-random.js";
import { currentScope, runInScope, type SessionReport, type TestScope } from "../lifecycle/scope.js";
import type { TrialsJson } from "../lifecycle/test-report.js";
import type { Turn } from "../trace/types.js";
import { branchReport } from "./branch-report.js";
import { passAtK, passHatK } from "./pass-rates.js";
import type { Variant } from "./variants.js";
import { percent } from "../base/percent.js";
import { printOut } from "../exits/out.js";
import { runPool } from "../base/pool.js";
import { concurrencyOf } from "./concurrency.js";
import { costText, formatUsd, turnsCost } from "../trace/cost.js";
import { trialsProgress } from "./trials-progress.js";
import { type TrialsCassette, trialCassette, trialScope } from "./trial-cache.js";
import type { CassetteOptions } from "../cassettes/types.js";
import { type ModelMatrixReport, type ModelTrial, modelMatrix } from "./model-matrix.js";
import { providerWaitText, turnsProviderWaits } from "../trace/provider-waits.js";

/** Options of {@link trials}. */
export interface TrialsOptions {
  /** The first trial's seed; each next trial adds one. `TOOLTRACE_SEED` overrides it (evalview's `--seed`); default 1. */
  readonly seed?: number;
  /** Fail the test when fewer than this share of trials pass (0 to 1). */
  readonly minPassRate?: number;
  /** Below `minPassRate`, throw (failing the test). Default true; false returns the report with `ok: false`. */
  readonly failTest?: boolean;
  /** The k of pass^k and pass@k to report. Default 1 and the number of trials. */
  readonly k?: number | readonly number[];
  /** The report's name. Default the test's name. */
  readonly name?: string;
  /**
   * Print the report when every trial passed: `true` always, `false` never. By default it prints when a trial
   * failed (below `minPassRate` it is the test's failure message) or under a verbose reporter.
   */
  readonly print?: boolean;
  /**
   * How many trials run at once. Each keeps its own scope, sessions, seed and trace, and the report lists them
   * by index whatever order they finish in. Default the plugin's `trials.concurrency`, else 1.
   */
  readonly concurrency?: number;
  /**
   * A budget in USD for the trials' calls to a real model (see `prices`): once what the finished trials cost
   * reaches it, no new trial starts (those already running finish). The report says how many ran and that the
   * budget stopped them; the pass rate and `minPassRate` are over the trials that ran. The first trial always
   * runs. Calls whose model has no price are not counted against it (the report says how many there were).
   */
  readonly budgetUsd?: number;
  /**
   * The same eval over several models, side by side: `count` trials per model, each trial given its `model` to
   * build the agent with; the result is a {@link ModelMatrixReport}, one row per model.
   */
  readonly models?: readonly string[];
  /**
   * A cache for live trials: each trial's sessions record into a cassette of their own, keyed by the trial's seed
   * (`auto`: replayed when recorded, recorded when new), so a rerun pays only for the trials it has not recorded.
   */
  readonly cassette?: TrialsCassette;
}

/** What a trial gets: its index, its seed (give it to `createSession({ seed })`) and a generator seeded by it. */
export type Trial = Variant;

/** One trial's outcome. */
export interface TrialRun {
  readonly index: number;
  readonly seed: number;
  readonly passed: boolean;
  /** Why it failed: the error's first lines, or the sessions' violations. */
  readonly reason?: string;
  /** Every turn of every session the trial made. */
  readonly turns: readonly Turn[];
  /** The tool calls, in order, by qualified name. */
  readonly path: readonly string[];
  readonly durationMs: number;
  /** The tokens its turns used. */
  readonly tokens: number;
  /** What its calls to a real model cost in USD; absent when none had a price. */
  readonly costUsd?: number;
  /** How many of its calls to a real model had no price. */
  readonly unpricedCalls?: number;
}

/** What {@link trials} found. */
export interface TrialsReport extends Omit<TrialsJson, "runs"> {
  readonly runs: readonly TrialRun[];
  /** The report as printed: each trial with its branch, and the pass rates. */
  summary(): string;
}

/**
 * Runs one eval `count` times, each trial with its own seed (so each is reproducible), and reports the pass rate,
 * pass^k and pass@k. A trial passes when `run` neither throws (a failed `expect` inside counts) nor leaves a
 * violation in a session it made; its sessions are closed after it, and their violations count against the
 * trial, not the test. Below `minPassRate` the test fails. The report goes into the test's `task.meta` for the
 * viewer, JUnit and JSON reports. `concurrency` runs that many trials at once (a live model's latency overlaps).
 *
 * @example
 * ```ts
 * await trials(10, { seed: 1, minPassRate: 0.9 }, async ({ seed }) => {
 *   const turn = await createSession({ seed, agent, tools, stubs }).send("Refund A17");
 *   expect(turn).toHaveCalledTool("refund");
 * });
 * ```
 *
 * With `models`, the same trials run over each model and are reported side by side:
 * ```ts
 * await trials(10, { models: ["gpt-4o-mini", "gpt-4o"], minPassRate: 0.8 }, async ({ seed, model }) => {
 *   const turn = await createSession({ seed, agent: agentFor(model), upstream: true }).send("Refund A17");
 *   expect(turn).toHaveCalledTool("refund");
 * });
 * ```
 */
export function trials(
  count: number,
  options: TrialsOptions & { readonly models: readonly string[] },
  run: (trial: ModelTrial) => unknown,
): Promise<ModelMatrixReport>;
export function trials(count: number, options: TrialsOptions, run: (trial: Trial) => unknown): Promise<TrialsReport>;
export function trials(
  count: number,
  options: TrialsOptions,
  run: (trial: ModelTrial) => unknown,
): Promise<TrialsReport | ModelMatrixReport> {
  const { models, ...one } = options;
  if (models !== undefined) return modelMatrix(oneModel, count, { ...one, models }, run, currentScope()?.testName);
  return oneModel(count, one, run as (trial: Trial) => unknown);
}

async function oneModel(count: number, options: TrialsOptions, run: (trial: Trial) => unknown): Promise<TrialsReport> {
  if (!Number.isInteger(count) || count < 1)
    throw usageError(`trials(count, ...): count must be a positive integer, got ${String(count)}.`);
  const first = seedFromEnvironment() ?? options.seed ?? 1;
  if (!Number.isSafeInteger(first)) throw usageError(`trials(count, { seed }): the seed must be an integer, got ${String(first)}.`);
  const { minPassRate } = options;
  if (minPassRate !== undefined && !(minPassRate >= 0 && minPassRate <= 1))
    throw usageError(`trials(count, { minPassRate }): a share from 0 to 1, got ${String(minPassRate)}.`, "write 0.8 for 80%.");
  const ks = [...new Set(typeof options.k === "number" ? [options.k] : (options.k ?? [1, count]))].filter((k) => k >= 1 && k <= count);
  const concurrency = concurrencyOf("trials", options.concurrency);
  const cassette = trialCassette(options.cassette);
  const { budgetUsd } = options;
  if (budgetUsd !== undefined && !(typeof budgetUsd === "number" && Number.isFinite(budgetUsd) && budgetUsd >= 0))
    throw usageError(
      `trials(count, { budgetUsd }): a non-negative finite number of USD, got ${String(budgetUsd)}.`,
      "write 0.5 for $0.50.",
    );
  let spent = 0;
  const parent = currentScope();
  const name = options.name ?? parent?.testName ?? "trials";
  const progress = trialsProgress(name, count, parent?.test, minPassRate);
  const finished: TrialRun[] = [];
  const ran = await runPool(
    count,
    concurrency,
    (index) => runTrial(parent, { index, seed: first + index, name: options.name }, run, cassette),
    (_index, [trial]) => {
      spent += trial.costUsd ?? 0;
      finished.push(trial);
      progress(finished);
    },
    () => budgetUsd !== undefined && finished.length > 0 && spent >= budgetUsd,
  );
  await progress.sent();
  // The trials' sessions join the test's in trial order, whatever order the trials finished in.
  for (const [, reports] of ran) for (const report of reports) parent?.adopt(report);
  const runs = ran.map(([trial]) => trial);
  const passed = runs.filter((trial) => trial.passed).length;
  const passRate = passed / runs.length;
  const ok = minPassRate === undefined || passRate >= minPassRate;
  const ranKs = ks.filter((k) => k <= runs.length);
  const report: TrialsReport = {
    name,
    count,
    ran: runs.length,
    passed,
    passRate,
    ...(budgetUsd !== undefined ? { budgetUsd, ...(runs.length < count ? { stoppedByBudget: true } : {}) } : {}),
    ...turnsCost(runs),
    passHatK: Object.fromEntries(ranKs.map((k) => [String(k), passHatK(runs.length, passed, k)])),
    passAtK: Object.fromEntries(ranKs.map((k) => [String(k), passAtK(runs.length, passed, k)])),
    ...(minPassRate !== undefined ? { minPassRate } : {}),
    ok,
    tree: divergenceTree(runs),
    ...scoresOf(runs),
    runs,
    summary: () => summarize(report),
  };
  const { summary: _summary, runs: _runs, ...json } = report;
  parent?.trials.push({ ...json, runs: runs.map(({ turns: _turns, ...rest }) => rest) });
  if (!ok && options.failTest !== false)
    throw new Error(
      message(
        `trials: ${passed} of ${runs.length} passed (${percent(passRate)}), below minPassRate ${percent(minPassRate ?? 0)}.\n${report.summary()}`,
      ),
    );
  const anyFailed = passed < runs.length;
  const said = anyFailed || report.stoppedByBudget === true || runFlags.verbose;
  if (options.print === true || (options.print === undefined && said)) printOut("console", report.summary(), "log");
  return report;
}

/** One trial's run, and its sessions' reports for the test's own (what they found counts against the trial). */
async function runTrial(
  parent: TestScope | undefined,
  at: { readonly index: number; readonly seed: number; readonly name: string | undefined },
  run: (trial: Trial) => unknown,
  cassette: CassetteOptions | undefined,
): Promise<[TrialRun, SessionReport[]]> {
  const { index, seed } = at;
  const scope = trialScope(parent, at, cassette);
  const started = performance.now();
  let failure: unknown;
  try {
    await runInScope(scope, () => run({ index, seed, random: seededRandom(seed) }));
  } catch (error) {
    failure = error;
  }
  const problems = scope.takeVisitorViolations();
  const reports = scope.closeAll();
  const adopted: SessionReport[] = [];
  for (const report of reports) {
    if (report.stillRunning) problems.push(report.stillRunning);
    problems.push(...report.violations);
    // What the trial found counts against the trial: its report joins the test's without failing it.
    const { stillRunning: _running, ...rest } = report;
    adopted.push({ ...rest, name: `trial ${index + 1} (seed ${seed}): ${report.name}`, violations: [], unusedRuleIds: [] });
  }
  const turns = reports.flatMap((report) => report.turnsJson());
  const failedTurn = turns.find((turn) => turn.status !== "completed");
  const reason =
    failure !== undefined
      ? firstLines(failure)
      : (problems[0] ?? (failedTurn ? `turn ${failedTurn.index + 1} ${failedTurn.status}` : undefined));
  const trial: TrialRun = {
    index,
    seed,
    passed: reason === undefined,
    ...(reason !== undefined ? { reason } : {}),
    turns,
    path: turns.flatMap((turn) => turn.toolCalls.map((call) => call.qualifiedName)),
    durationMs: performance.now() - started,
    tokens: turns.reduce((sum, turn) => sum + turn.usage.totalTokens, 0),
    ...turnsCost(turns),
  };
  return [trial, adopted];
}

function summarize(report: TrialsReport): string {
  const rates = [
    `pass rate ${report.passed}/${report.count} = ${percent(report.passRate)}${report.minPassRate !== undefined ? ` (min ${percent(report.minPassRate)})` : ""}`,
    ...Object.entries(report.passHatK).map(([k, value]) => `pass^${k} ${value.toFixed(2)}`),
    ...Object.entries(report.passAtK).map(([k, value]) => `pass@${k} ${value.toFixed(2)}`),
    ...Object.entries(report.scores ?? {}).map(([judge, mean]) => `mean score ${judge} ${mean.toFixed(2)}`),
  ];
  const cost = costLine(report);
  const tree = report.tree ? ["  Where they diverge:", ...divergenceLines(report.tree).map((line) => `    ${line}`)] : [];
  return noWorkflowCommands(
    [branchReport(report.name, report.runs, new Map(), "trials"), `  ${rates.join(" · ")}`, ...cost, ...tree].join("\n"),
  );
}

/**
 * What the trials cost, what they waited on the provider, and the budget that stopped them: "budget $0.50 reached
 * after 7 of 20 trials".
 */
function costLine(report: TrialsReport): string[] {
  const spent = costText(report);
  const lines = spent === "" ? [] : [`  cost ${spent}`];
  const waits = turnsProviderWaits(report.runs.flatMap((run) => run.turns));
  if (waits !== undefined) lines.push(`  ${providerWaitText(waits)}`);
  if (report.stoppedByBudget === true && report.budgetUsd !== undefined)
    lines.push(`  budget ${formatUsd(report.budgetUsd)} reached after ${report.ran} of ${report.count} trials: the rest did not run`);
  return lines;
}

/** The judges' mean scores over every trial's turns, when a judge scored any. */
function scoresOf(runs: readonly TrialRun[]): { scores?: Record<string, number> } {
  const scores = meanScores(runs.flatMap((run) => run.turns));
  return Object.keys(scores).length > 0 ? { scores } : {};
}

function firstLines(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const plain = stripVTControlCharacters(text);
  const lines = plain.split("\n").filter((line) => line.trim() !== "");
  // A matcher's first line is its hint (`expect(received).toHaveCalledTool(expected)`): what follows says more.
  if (lines.length > 1 && /^expect\(/.test(lines[0] ?? "")) lines.shift();
  return lines.slice(0, 2).join(" · ").slice(0, 240);
}

function seedFromEnvironment(): number | undefined {
  const raw = process.env.TOOLTRACE_SEED;
  return raw === undefined || raw === "" ? undefined : Number(raw);
}
