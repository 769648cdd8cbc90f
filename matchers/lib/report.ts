import { formatToolCalls } from "../../src/trace/format.js";
import type { ToolCall } from "../../src/trace/types.js";
import { hint, type MatcherContext } from "./matcher-context.js";

/** A matcher message: hint, the Expected and Received lines (`expected` already worded for `.not`), then sections. */
export function reportSections(context: MatcherContext, matcher: string, expected: string, received: string, sections: readonly string[]): string {
  return [hint(context, matcher), "", `Expected: ${expected}`, `Received: ${received}`, ...sections.flatMap((section) => ["", section])].join("\n");
}

/** The message every tool-call matcher prints: hint, expected, received, and the numbered calls. */
export function report(context: MatcherContext, matcher: string, expected: string, received: string, calls: readonly ToolCall[], extra?: string): string {
  return reportSections(context, matcher, `${context.isNot ? "not " : ""}${expected}`, received, [...(extra ? [extra] : []), `Tool calls (${calls.length}):\n${formatToolCalls(calls)}`]);
}
