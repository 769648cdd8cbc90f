import type { UnusedRulesPolicy } from "../session/types.js";

/** Options of the `tooltrace()` Vitest plugin. */
export interface TooltracePluginOptions {
  /** What to do after a test whose sessions left stub rules unused. Default `warn`. */
  readonly unusedRules?: UnusedRulesPolicy;
}
