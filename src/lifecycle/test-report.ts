import type { DivergenceNode } from "../trace/divergence-tree.js";
import type { CostTotal } from "../trace/cost.js";
import type { ProviderWaitTotal } from "../trace/provider-waits.js";
import type { OfferedToolJson } from "../trace/request-json.js";
import type { TRACE_FORMAT_VERSION, TurnJson } from "../trace/turn-json.js";

/** What to do with stub rules that no call used. */
export type UnusedRulesPolicy = "warn" | "error" | "ignore";

/**
 * What a test leaves for reporters: the Vitest plugin puts it on `task.meta.tooltrace`. JSON only, with the
 * trace format's `version`; each turn is a {@link TurnJson}.
 */
export interface TooltraceTaskMeta {
  readonly version: typeof TRACE_FORMAT_VERSION;
  readonly sessions: readonly {
    readonly name: string;
    readonly strict: boolean;
    readonly turns: readonly TurnJson[];
    /** Every tool the session's model was offered, by name, with its description and input schema (once per session). */
    readonly tools: Readonly<Record<string, OfferedToolJson>>;
    readonly unusedRuleIds: readonly string[];
    readonly violations: readonly string[];
    /** The session's cassette: its absolute path, and whether the test replayed it or recorded it. */
    readonly cassette?: { readonly path: string; readonly mode: "replay" | "record" };
  }[];
  /** What the test's calls to a real model cost (its sessions', its trials' included); absent when none was made. */
  readonly cost?: CostTotal;
  /** What the test's calls to a real model waited on the providers (the run's limits, their rate limits); absent when none did. */
  readonly providerWaits?: ProviderWaitTotal;
  /** The repeated trials the test ran with `trials()`, each with its pass rate. */
  readonly trials?: readonly TrialsJson[];
}

/** One `trials()` run in a test's `task.meta`: how many passed, the pass rate, pass^k, and each trial. */
export interface TrialsJson {
  readonly name: string;
  /** How many trials were asked for. */
  readonly count: number;
  /** How many ran: `count`, or fewer when `budgetUsd` stopped them. */
  readonly ran: number;
  readonly passed: number;
  /** `passed / ran`: over the trials that ran. */
  readonly passRate: number;
  /** The budget the trials were given, in USD. */
  readonly budgetUsd?: number;
  /** True when the budget was reached before every trial started: `ran` is less than `count`. */
  readonly stoppedByBudget?: boolean;
  /** What the trials' calls to a real model cost in USD; absent when none had a price. */
  readonly costUsd?: number;
  /** How many of their calls to a real model had no price (not in `costUsd`, nor counted against the budget). */
  readonly unpricedCalls?: number;
  /** The chance that k trials drawn from these all pass (pass^k), by k. */
  readonly passHatK: Readonly<Record<string, number>>;
  /** The chance that at least one of k drawn trials passes (pass@k), by k. */
  readonly passAtK: Readonly<Record<string, number>>;
  readonly minPassRate?: number;
  /** Whether the pass rate reached `minPassRate` (true without one). */
  readonly ok: boolean;
  /** The trials merged by the calls they made: where they diverged, with counts and pass rates per branch. */
  readonly tree?: DivergenceNode;
  /** Each judge's mean score over the trials' turns (`toSatisfyJudge`), by judge name. */
  readonly scores?: Readonly<Record<string, number>>;
  readonly runs: readonly {
    readonly index: number;
    readonly seed: number;
    readonly passed: boolean;
    /** Why it failed: the first lines of the error or the violations. */
    readonly reason?: string;
    /** The tool calls it made, in order, by qualified name. */
    readonly path: readonly string[];
    readonly durationMs: number;
    /** The tokens its turns used. */
    readonly tokens: number;
    /** What its calls to a real model cost in USD; absent when none had a price. */
    readonly costUsd?: number;
    /** How many of its calls to a real model had no price. */
    readonly unpricedCalls?: number;
  }[];
}
