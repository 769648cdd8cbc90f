import type { TRACE_FORMAT_VERSION, TurnJson } from "../trace/turn-json.js";

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
    readonly unusedRuleIds: readonly string[];
    readonly violations: readonly string[];
  }[];
}
