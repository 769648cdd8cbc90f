import { globalSingleton } from "./global-state.js";

/** What the run allows one provider (or one of its models) and how it waits out the provider's rate limits. */
export interface ProviderLimit {
  /**
   * At most this many requests to the real model in flight at once, per model of the provider, across the
   * whole run (every test, every worker). Default: no limit.
   */
  readonly maxInFlight?: number;
  /** How many 429 or 529 answers with a `Retry-After` one request waits out and retries. Default 5; 0 turns waiting off. */
  readonly retries?: number;
  /** The longest one wait may be: a provider asking for longer gets its answer passed on. Default 60,000 ms. */
  readonly maxWaitMs?: number;
}

/**
 * Limits by provider (`openai`, `anthropic`, `google`) or by one model of it (`"openai/gpt-4o-mini"`, which wins
 * over the provider's for that model). The key's provider is the API the request speaks, wherever it is sent.
 */
export type ProviderLimits = Readonly<Record<string, ProviderLimit>>;

/** The providers a limit may name: the first part of a wire API's name. */
export const LIMITED_PROVIDERS: readonly string[] = ["openai", "anthropic", "google"];

/** The defaults of a {@link ProviderLimit} where the run's options set none. */
export const DEFAULT_RETRIES = 5;
export const DEFAULT_MAX_WAIT_MS = 60_000;

/** What applies to one provider and model: the model's entry over the provider's over the defaults. */
export interface ResolvedLimit {
  /** The slot's key: `provider/model`. */
  readonly key: string;
  readonly maxInFlight: number | undefined;
  readonly retries: number;
  readonly maxWaitMs: number;
}

const state = globalSingleton("providerLimits", () => ({ limits: {} as ProviderLimits }));

/** The run's limits in this process (the plugin's `providers`, Jest's `globals.tooltrace.providers`). */
export function setProviderLimits(limits: ProviderLimits | undefined): void {
  state.limits = limits ?? {};
}

/** The run's limits as set. */
export function providerLimits(): ProviderLimits {
  return state.limits;
}

/** What applies to `model` of `provider`. */
export function limitFor(provider: string, model: string): ResolvedLimit {
  const chosen = { ...state.limits[provider], ...state.limits[`${provider}/${model}`] };
  return {
    key: `${provider}/${model}`,
    maxInFlight: chosen.maxInFlight,
    retries: chosen.retries ?? DEFAULT_RETRIES,
    maxWaitMs: chosen.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
  };
}

/** Whether any provider or model has a `maxInFlight`: only then does the run need a limiter. */
export function hasInFlightLimits(limits: ProviderLimits | undefined): boolean {
  return Object.values(limits ?? {}).some((limit) => limit.maxInFlight !== undefined);
}
