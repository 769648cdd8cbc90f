import { setTimeout as sleep } from "node:timers/promises";
import { acquireProviderSlot, reportRateLimitWait } from "../base/provider-gate.js";
import { limitFor } from "../base/provider-limits.js";
import type { ProviderWait } from "../trace/types.js";

/** The answers that say "later": too many requests, and Anthropic's overloaded. */
const RATE_LIMITED = new Set([429, 529]);

/**
 * How long a rate-limited answer asks to wait, in ms: `retry-after-ms` (OpenAI's), else `Retry-After` in
 * seconds (fractions too) or as an HTTP date; undefined when it says nothing readable.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers.get("retry-after")?.trim();
  if (after === undefined || after === "") return undefined;
  if (/^\d+(?:\.\d+)?$/.test(after)) return Number(after) * 1000;
  const at = Date.parse(after);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Sends one request to the real model of `provider` (`openai`, `anthropic`, `google`) and `model`, under the
 * run's limit: it waits for a slot when the limit sets `maxInFlight`, and while it holds it, a 429 or 529
 * answered with a `Retry-After` is waited out and sent again (up to the limit's `retries`, each wait at most
 * its `maxWaitMs`); any other answer, or one past those bounds, is `read` before the slot is given back.
 * `onWait` hears what was waited, when anything was.
 */
export async function sendToProvider<T>(
  provider: string,
  model: string,
  send: () => Promise<Response>,
  read: (response: Response) => Promise<T>,
  signal?: AbortSignal,
  onWait?: (wait: ProviderWait) => void,
): Promise<T> {
  const limit = limitFor(provider, model);
  const slot = await acquireProviderSlot(limit, signal);
  let rateLimited = 0;
  let rateLimitedMs = 0;
  try {
    for (;;) {
      const response = await send();
      const wait = rateLimited < limit.retries && RATE_LIMITED.has(response.status) ? retryAfterMs(response.headers) : undefined;
      if (wait === undefined || wait > limit.maxWaitMs) return await read(response);
      await response.body?.cancel();
      await sleep(wait, undefined, signal ? { signal } : {});
      rateLimited += 1;
      rateLimitedMs += wait;
      reportRateLimitWait(limit.key, wait);
    }
  } finally {
    slot?.release();
    const queuedMs = Math.round(slot?.queuedMs ?? 0);
    if (rateLimited > 0 || queuedMs > 0) onWait?.({ queuedMs, rateLimited, rateLimitedMs });
  }
}
