import type { ModelCall, Turn } from "./types.js";

/** What a set of calls to the real model waited on the providers' account (see `ProviderWait`). */
export interface ProviderWaitTotal {
  /** Calls that waited at all. */
  readonly calls: number;
  /** Milliseconds waited for a slot under the run's `providers` limits. */
  readonly queuedMs: number;
  /** Rate-limit answers (429, 529) waited out and retried, and the milliseconds they asked for. */
  readonly rateLimited: number;
  readonly rateLimitedMs: number;
}

/** Sums what `turns`' model calls (judges' included) waited; undefined when none waited. */
export function turnsProviderWaits(turns: Iterable<Pick<Turn, "modelCalls" | "judgeCalls">>): ProviderWaitTotal | undefined {
  let total: ProviderWaitTotal | undefined;
  for (const turn of turns)
    for (const call of [...turn.modelCalls, ...(turn.judgeCalls ?? [])] as ModelCall[]) {
      const wait = call.providerWait;
      if (wait === undefined) continue;
      total = addProviderWaits(total, { calls: 1, ...wait });
    }
  return total;
}

/** Adds two totals; undefined when both are. */
export function addProviderWaits(a: ProviderWaitTotal | undefined, b: ProviderWaitTotal | undefined): ProviderWaitTotal | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return {
    calls: a.calls + b.calls,
    queuedMs: a.queuedMs + b.queuedMs,
    rateLimited: a.rateLimited + b.rateLimited,
    rateLimitedMs: a.rateLimitedMs + b.rateLimitedMs,
  };
}

/** A total as a summary says it: "3 calls queued 1.2 s for the provider limit, 2 rate limits waited out (0.4 s)". */
export function providerWaitText(total: ProviderWaitTotal): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const parts: string[] = [];
  if (total.queuedMs > 0) parts.push(`queued ${seconds(total.queuedMs)} for the provider limit`);
  if (total.rateLimited > 0)
    parts.push(`${total.rateLimited} rate limit${total.rateLimited === 1 ? "" : "s"} waited out (${seconds(total.rateLimitedMs)})`);
  return `${total.calls} call${total.calls === 1 ? "" : "s"} waited on the provider: ${parts.join(", ")}`;
}
