import type { OfferedToolJson } from "../trace/request-json.js";
import type { TRACE_FORMAT_VERSION, TurnJson } from "../trace/turn-json.js";

/** What to do with stub rules that no call used. */
export type UnusedRulesPolicy = "warn" | "error" | "ignore";

/**
 * What a test leaves for reporters: the Vitest plugin puts it on `task.meta.tooltrace`. JSON only, with the
 * trace format's `version`; each turn is a {@link TurnJson}.
 */
export interface TooltraceTaskMeta {
  readonly version: typeof TRACE_FORMAT_VERSION;
  readonly sessions: readonly {
    readonly name: string;
    readonly strict: boolean;
    readonly turns: readonly TurnJson[];
    /** Every tool the session's model was offered, by name, with its description and input schema (once per session). */
    readonly tools: Readonly<Record<string, OfferedToolJson>>;
    readonly unusedRuleIds: readonly string[];
    readonly violations: readonly string[];
    /** The session's cassette: its absolute path, and whether the test replayed it or recorded it. */
    readonly cassette?: { readonly path: string; readonly mode: "replay" | "record" };
  }[];
}
