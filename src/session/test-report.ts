import type { Turn } from "../trace/types.js";

/** What a test leaves for reporters: the Vitest plugin puts it on `task.meta.tooltrace`. */
export interface TooltraceTaskMeta {
  readonly sessions: readonly {
    readonly name: string;
    readonly turns: readonly Turn[];
    readonly unusedRuleIds: readonly string[];
    readonly violations: readonly string[];
  }[];
}

/** A JSON-safe copy (real tools may return values that do not serialize). */
export function toJsonSafe<T>(value: T): T {
  const seen = new WeakSet<object>();
  return JSON.parse(
    JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === "bigint") return item.toString();
      if (typeof item === "function") return `[Function ${(item as { name?: string }).name || "anonymous"}]`;
      if (item !== null && typeof item === "object") {
        if (seen.has(item)) return "[Circular]";
        seen.add(item);
      }
      return item;
    }) ?? "null",
  ) as T;
}
