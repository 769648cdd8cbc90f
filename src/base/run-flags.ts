import { globalSingleton } from "./global-state.js";

/** What the run asked of tooltrace's own output: `verbose` when a verbose reporter runs (Vitest's `verbose`). */
export const runFlags = globalSingleton("runFlags", () => ({ verbose: false }));
