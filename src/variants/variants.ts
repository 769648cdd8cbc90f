import type { Turn } from "../trace/types.js";
import { seededRandom } from "../base/seeded-random.js";
import { usageError } from "../exits/errors.js";
import { runPool } from "../base/pool.js";
import { concurrencyOf } from "./concurrency.js";

/** What one variant gets: its seed (give it to `createSession({ seed })`), its index, and a generator seeded by it. */
export interface Variant {
  readonly index: number;
  readonly seed: number;
  random(): number;
}

/** One variant's run. */
export interface VariantRun {
  readonly seed: number;
  readonly turn: Turn;
  /** The turn completed with no violation. */
  readonly passed: boolean;
  /** The tool calls it made, in order (qualified names). */
  readonly path: readonly string[];
}

/** What {@link variants} found. */
export interface VariantsReport {
  readonly runs: readonly VariantRun[];
  /** How many variants passed. */
  readonly passed: number;
  readonly allPassed: boolean;
  /** Each distinct tool-call path (`lookup → refund`), with how many variants took it, most taken first. */
  readonly paths: readonly { readonly path: string; readonly count: number }[];
}

/** Options of {@link variants}. */
export interface VariantsOptions {
  /** The first variant's seed; each next variant adds one. Default 1. */
  readonly seed?: number;
  /**
   * How many variants run at once; the report lists them by index whatever order they finish in. Default the
   * plugin's `trials.concurrency`, else 1.
   */
  readonly concurrency?: number;
}

/**
 * Runs one eval `count` times, the seed advancing by one per variant from `seed` (evalview's `--variants N
 * --seed S`): `run` builds the session with `createSession({ seed: variant.seed, ... })` and returns the turn to
 * judge. The same (eval, seed) always gives the same run; the report lists the distinct paths the variants took.
 * With `concurrency`, that many run at once; when one throws, no further variant starts and the error is thrown
 * once the running ones have ended.
 *
 * @example
 * ```ts
 * const report = await variants(10, { seed: 1 }, async ({ seed }) => createSession({ seed, agent, tools, llm }).send("Refund A17"));
 * expect(report.passed).toBeGreaterThanOrEqual(9);
 * ```
 */
export async function variants(count: number, options: VariantsOptions, run: (variant: Variant) => Promise<Turn>): Promise<VariantsReport> {
  if (!Number.isInteger(count) || count < 1)
    throw usageError(`variants(count, ...): count must be a positive integer, got ${String(count)}.`);
  const first = options.seed ?? 1;
  if (!Number.isSafeInteger(first)) throw usageError(`variants(count, { seed }): the seed must be an integer, got ${String(first)}.`);
  const concurrency = concurrencyOf("variants", options.concurrency);
  const runs = await runPool(count, concurrency, async (index): Promise<VariantRun> => {
    const seed = first + index;
    const turn = await run({ index, seed, random: seededRandom(seed) });
    return {
      seed,
      turn,
      passed: turn.status === "completed" && turn.violations.length === 0,
      path: turn.toolCalls.map((call) => call.qualifiedName),
    };
  });
  const counts = new Map<string, number>();
  for (const { path } of runs) {
    const key = path.length === 0 ? "(no tool calls)" : path.join(" → ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const passed = runs.filter((variant) => variant.passed).length;
  return {
    runs,
    passed,
    allPassed: passed === runs.length,
    paths: [...counts].map(([path, n]) => ({ path, count: n })).sort((a, b) => b.count - a.count),
  };
}
