import { globalSingleton } from "./global-state.js";
import { limiterClient, type LimiterClient } from "./limiter-client.js";
import { type LimiterHost, type LimiterKeyStats, startLimiterHost } from "./limiter-host.js";
import type { ResolvedLimit } from "./provider-limits.js";
import { KeyedSlots } from "./slots.js";

/** A slot held for one request to the real model. */
export interface ProviderSlot {
  /** How long the request waited for its slot (ms). */
  readonly queuedMs: number;
  release(): void;
}

const state = globalSingleton("providerGate", () => ({
  local: new KeyedSlots(),
  client: undefined as LimiterClient | undefined,
  address: undefined as string | undefined,
  host: undefined as Promise<LimiterHost> | undefined,
}));

/** Starts the run's limiter in this process (the plugin's), once, and returns its address for the workers. */
export async function startRunLimiter(): Promise<string> {
  state.host ??= startLimiterHost();
  return (await state.host).address;
}

/** Starts the run's limiter's counts again, when this process hosts one (a run starts). */
export async function resetRunLimiterStats(): Promise<void> {
  (await state.host)?.resetStats();
}

/** What the run's limiter counted by `provider/model`; undefined in a process that hosts none. */
export async function runLimiterStats(): Promise<ReadonlyMap<string, Readonly<LimiterKeyStats>> | undefined> {
  return (await state.host)?.stats();
}

/**
 * Where this process's requests take their slots: the run's limiter host at `address` (`127.0.0.1:port`, what
 * the plugin's main process hands its workers), or, without one, this process alone.
 */
export function useLimiterHost(address: string | undefined): void {
  if (address === state.address) return;
  state.address = address;
  state.client = address === undefined ? undefined : limiterClient(address, (key, max) => state.local.acquire(key, max));
}

/**
 * Waits for a slot under `limit` (run-wide with a host); none to hold when the limit sets no `maxInFlight`. A
 * request aborted while it waits rejects with `signal`'s reason, and its slot, once granted, goes straight back.
 */
export async function acquireProviderSlot(limit: ResolvedLimit, signal?: AbortSignal): Promise<ProviderSlot | undefined> {
  const max = limit.maxInFlight;
  if (max === undefined) return undefined;
  signal?.throwIfAborted();
  const started = performance.now();
  const pending = (state.client ?? state.local).acquire(limit.key, max);
  const release =
    signal === undefined
      ? await pending
      : await new Promise<() => void>((resolve, reject) => {
          const aborted = () => {
            void pending.then((given) => given());
            reject(signal.reason);
          };
          signal.addEventListener("abort", aborted, { once: true });
          void pending.then((given) => {
            signal.removeEventListener("abort", aborted);
            resolve(given);
          });
        });
  return { queuedMs: performance.now() - started, release };
}

/** Tells the run's limiter (when there is one) that a rate-limit answer under `key` was waited out for `ms`. */
export function reportRateLimitWait(key: string, ms: number): void {
  state.client?.waited(key, ms);
}
