import { globalSingleton } from "./global-state.js";

/** What the run asked of tooltrace's own output, and which runner's setup file installed tooltrace. */
export const runFlags = globalSingleton("runFlags", () => ({
  /** `verbose` when a verbose reporter runs (Vitest's `verbose`). */
  verbose: false,
  /** Set by the plugin's setup file (Vitest) or `tooltrace/jest` (Jest); unset, tests run without tooltrace's. */
  setup: undefined as "vitest" | "jest" | undefined,
  /** The plugin's `trials.concurrency`: how many trials and variants run at once when a call sets none. */
  trialsConcurrency: undefined as number | undefined,
}));
