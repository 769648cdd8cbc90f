import { usageError } from "../exits/errors.js";
import { checkRunOptions } from "../session/run-options.js";
import { checkConcurrency } from "../variants/concurrency.js";
import type { UnusedRulesPolicy } from "../session/types.js";
import type { CassetteMode } from "../cassettes/types.js";
import type { ProviderLimits } from "../base/provider-limits.js";

/**
 * The run's options under Jest, the plugin's Jest form: `globals: { tooltrace: { ... } }` in the Jest config,
 * which Jest makes a global of every test file's environment (CommonJS and ESM alike).
 *
 * @example
 * ```js
 * // jest.config.js
 * export default {
 *   setupFilesAfterEnv: ["tooltrace/jest"],
 *   globals: { tooltrace: { allowHosts: ["api.example.com"], strict: true, unusedRules: "error" } },
 * };
 * ```
 */
export interface TooltraceJestOptions {
  /** What to do after a test whose sessions left stub rules unused. Default `TOOLTRACE_UNUSED_RULES`, else `warn`. */
  readonly unusedRules?: UnusedRulesPolicy;
  /** Strict mode for every session that does not set `strict` itself (`TOOLTRACE_STRICT=1` wins). */
  readonly strict?: boolean;
  /** Hosts every test of the run may reach (`"api.example.com"`, `"db.internal:5432"`, `"*.corp.example"`). */
  readonly allowHosts?: readonly string[];
  /** Let the run reach the network; by default it is hermetic (loopback stays open). `TOOLTRACE_LIVE=1` does the same. */
  readonly live?: boolean;
  /** The cassette mode of every session of the run (below `TOOLTRACE_CASSETTE` and a session's own). Default `off`. */
  readonly cassette?: CassetteMode;
  /**
   * Limits on the real model by provider or `provider/model` (`{ openai: { maxInFlight: 5 } }`), and how
   * rate-limit answers are waited out. With `tooltrace/jest-reporter` in `reporters` the limit holds across
   * Jest's workers (the reporter's process hosts it); without it, per worker (run with `--runInBand`, or divide
   * the provider's limit by `maxWorkers`).
   */
  readonly providers?: ProviderLimits;
  /**
   * `concurrency`: how many trials of each `trials()` and `variants()` call (and each YAML case's variants) run at
   * once, unless the call sets its own. Default 1.
   */
  readonly trials?: { readonly concurrency?: number };
}

const KNOWN: readonly string[] = ["unusedRules", "strict", "allowHosts", "live", "cassette", "providers", "trials"];

/** `globals.tooltrace` of the Jest config, checked; `TOOLTRACE_UNUSED_RULES` when it sets no `unusedRules`. */
export function readJestOptions(): TooltraceJestOptions {
  const given: unknown = (globalThis as { tooltrace?: unknown }).tooltrace;
  if (given !== undefined && (given === null || typeof given !== "object" || Array.isArray(given)))
    throw usageError(
      `globals.tooltrace in the Jest config: pass an object, e.g. { allowHosts: ["api.example.com"], strict: true }, got ${JSON.stringify(given)}.`,
    );
  const options = (given ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(options).filter((key) => !KNOWN.includes(key));
  if (unknown.length > 0)
    throw usageError(
      `globals.tooltrace in the Jest config: ${unknown.map((key) => `\`${key}\``).join(", ")} is not an option under Jest; use ${KNOWN.map((key) => `\`${key}\``).join(", ")}.`,
    );
  checkRunOptions(options);
  const trials = options.trials as { concurrency?: unknown } | undefined;
  if (trials !== undefined && (trials === null || typeof trials !== "object" || Array.isArray(trials)))
    throw usageError(
      `globals.tooltrace.trials in the Jest config: pass an object, e.g. { concurrency: 4 }, got ${JSON.stringify(trials)}.`,
    );
  if (trials?.concurrency !== undefined) checkConcurrency(trials.concurrency, "globals.tooltrace.trials.concurrency");
  const checked = options as TooltraceJestOptions;
  return { ...checked, unusedRules: checked.unusedRules ?? unusedRulesFromEnv() };
}

/** `TOOLTRACE_UNUSED_RULES`: `warn` (default), `error` or `ignore`. */
function unusedRulesFromEnv(): UnusedRulesPolicy {
  return (["warn", "error", "ignore"] as const).find((value) => value === process.env.TOOLTRACE_UNUSED_RULES) ?? "warn";
}
