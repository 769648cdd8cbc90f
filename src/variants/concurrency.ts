import { runFlags } from "../base/run-flags.js";
import { usageError } from "../exits/errors.js";

/**
 * How many of `caller`'s trials run at once: its own `concurrency`, else the plugin's, else 1 (one at a time,
 * as before the option existed: a provider's rate limit and an agent's shared state are the user's to judge).
 */
export function concurrencyOf(caller: "trials" | "variants", concurrency: number | undefined): number {
  const chosen = concurrency ?? runFlags.trialsConcurrency ?? 1;
  checkConcurrency(chosen, concurrency !== undefined ? `${caller}(count, { concurrency })` : "tooltrace({ trials: { concurrency } })");
  return chosen;
}

/** Throws unless `concurrency` is a positive integer, naming where it was set (`where`). */
export function checkConcurrency(concurrency: unknown, where: string): void {
  if (typeof concurrency === "number" && Number.isSafeInteger(concurrency) && concurrency >= 1) return;
  throw usageError(
    `${where}: how many trials run at once, a positive integer; got ${typeof concurrency === "string" ? JSON.stringify(concurrency) : String(concurrency)}.`,
    "write e.g. 8 to run eight at a time, or leave it out to run them one at a time.",
  );
}
