import { LIMITED_PROVIDERS, type ProviderLimits, setProviderLimits } from "../base/provider-limits.js";
import { runOptionName } from "../base/runner-form.js";
import { usageError } from "../exits/errors.js";

const FIELDS = ["maxInFlight", "retries", "maxWaitMs"] as const;

/**
 * Checks the run's `providers` option: keys a provider (`openai`, `anthropic`, `google`) or one model of it
 * (`"openai/gpt-4o-mini"`), each an object of whole numbers (`maxInFlight` at least 1).
 */
export function checkProviderLimits(value: unknown): ProviderLimits | undefined {
  if (value === undefined) return undefined;
  const option = runOptionName("providers");
  const example = 'write { openai: { maxInFlight: 5 }, "anthropic/claude-sonnet-4-5": { maxInFlight: 2 } }.';
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw usageError(`${option}: an object of limits by provider, got ${JSON.stringify(value)}.`, example);
  for (const [key, limit] of Object.entries(value)) {
    const provider = key.split("/")[0] ?? "";
    if (!LIMITED_PROVIDERS.includes(provider) || key.endsWith("/"))
      throw usageError(
        `${option}: "${key}" names no provider; use ${LIMITED_PROVIDERS.map((name) => `"${name}"`).join(", ")}, or one with a model ("openai/gpt-4o-mini").`,
        example,
      );
    if (limit === null || typeof limit !== "object" || Array.isArray(limit))
      throw usageError(`${option}: "${key}" must be an object such as { maxInFlight: 5 }, got ${JSON.stringify(limit)}.`, example);
    for (const field of Object.keys(limit))
      if (!(FIELDS as readonly string[]).includes(field))
        throw usageError(`${option}: "${key}".${field} is not a limit; use ${FIELDS.join(", ")}.`, example);
    for (const field of FIELDS) {
      const number = (limit as Record<string, unknown>)[field];
      const least = field === "maxInFlight" ? 1 : 0;
      if (number !== undefined && !(typeof number === "number" && Number.isSafeInteger(number) && number >= least))
        throw usageError(
          `${option}: "${key}".${field} must be a whole number of at least ${least}, got ${JSON.stringify(number)}.`,
          example,
        );
    }
  }
  return value as ProviderLimits;
}

/**
 * The run's `providers` limits for every later call to the real model in this process: what the plugin and
 * `globals.tooltrace` set, for a script of your own (`{}` takes them away).
 */
export function useProviderLimits(limits: ProviderLimits | undefined): void {
  setProviderLimits(checkProviderLimits(limits));
}
