/** What one model's tokens cost: USD per million tokens. */
export interface ModelPrice {
  /** USD per million input (prompt) tokens. */
  readonly input: number;
  /** USD per million output (completion) tokens, reasoning tokens included. */
  readonly output: number;
}

/**
 * The month whose published list prices {@link MODEL_PRICES} holds. They were not fetched from the providers when
 * this package was built, and prices change: check them against your provider's page, and override.
 */
export const PRICES_TAKEN = "2025-08";

/**
 * List prices of current models of the OpenAI, Anthropic and Google Gemini APIs (the AI SDK reports the same
 * model ids), in USD per million tokens, as of {@link PRICES_TAKEN}. Prices change: override or add any with
 * the plugin's `prices` option or a session's `prices` (`{ "model-id": { input, output } }`). A dated id
 * (`claude-sonnet-4-20250514`) or one with a provider prefix (`openai/gpt-4o`, `models/gemini-2.5-pro`) takes
 * the price of its undated id. Gemini 2.5 Pro is priced at its rate for prompts up to 200k tokens.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  "gpt-5": { input: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-5-nano": { input: 0.05, output: 0.4 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  "o4-mini": { input: 1.1, output: 4.4 },
  // Anthropic
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4": { input: 15, output: 75 },
  "claude-sonnet-4": { input: 3, output: 15 },
  "claude-3-7-sonnet": { input: 3, output: 15 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
  // Google Gemini
  "gemini-2.5-pro": { input: 1.25, output: 10 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4 },
  "gemini-2.0-flash": { input: 0.1, output: 0.4 },
};
