import { runOptionName } from "../base/runner-form.js";
import { usageError } from "../exits/errors.js";
import { parseHostRules } from "../pipeline/hosts.js";
import type { CassetteMode } from "../cassettes/types.js";
import type { UnusedRulesPolicy } from "./types.js";
import type { ProviderLimits } from "../base/provider-limits.js";
import { checkProviderLimits } from "./provider-limits-check.js";

/** The options every runner's form of the run's options has (the Vitest plugin's, Jest's `globals.tooltrace`). */
export interface RunOptions {
  /** What to do after a test whose sessions left stub rules unused. Default `warn`. */
  readonly unusedRules?: UnusedRulesPolicy;
  /** Strict mode for every session that does not set `strict` itself. */
  readonly strict?: boolean;
  /** Hosts every test of the run may reach: the run is hermetic. */
  readonly allowHosts?: readonly string[];
  /** Let the run reach the network. */
  readonly live?: boolean;
  /** The cassette mode of every session of the run. Default `off`. */
  readonly cassette?: CassetteMode;
  /**
   * Limits on the real model for the whole run, by provider or `provider/model`: at most `maxInFlight` requests
   * in flight per model (across tests and workers), and how rate-limit answers are waited out (`retries`,
   * `maxWaitMs`). Without it, nothing is limited and a 429 or 529 with `Retry-After` is still waited out.
   */
  readonly providers?: ProviderLimits;
}

const POLICIES: readonly unknown[] = ["warn", "error", "ignore"];
const MODES: readonly unknown[] = ["record", "replay", "auto", "off"];

/** Refuses a run option of the wrong type or value, naming it in the runner's form and what to write. */
export function checkRunOptions(options: { readonly [K in keyof RunOptions]?: unknown }): void {
  if (options.unusedRules !== undefined && !POLICIES.includes(options.unusedRules))
    throw usageError(`${runOptionName("unusedRules")}: use "warn", "error" or "ignore", got ${JSON.stringify(options.unusedRules)}.`);
  for (const key of ["strict", "live"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "boolean")
      throw usageError(`${runOptionName(key)}: use true or false, got ${JSON.stringify(value)}.`);
  }
  if (options.cassette !== undefined && !MODES.includes(options.cassette))
    throw usageError(`${runOptionName("cassette")}: use "record", "replay", "auto" or "off", got ${JSON.stringify(options.cassette)}.`);
  parseHostRules(options.allowHosts, runOptionName("allowHosts"));
  checkProviderLimits(options.providers);
}
