import { formatToolCalls } from "../../src/trace/format.js";
import type { ToolCall } from "../../src/trace/types.js";
import { hint, type MatcherContext } from "./matcher-context.js";

/** The message every tooltrace matcher prints: hint, expected, received, and the numbered calls. */
export function report(context: MatcherContext, matcher: string, expected: string, received: string, calls: readonly ToolCall[], extra?: string): string {
  return [
    hint(context, matcher),
    "",
    `Expected: ${context.isNot ? "not " : ""}${expected}`,
    `Received: ${received}`,
    ...(extra ? ["", extra] : []),
    "",
    `Tool calls (${calls.length}):`,
    formatToolCalls(calls),
  ].join("\n");
}
