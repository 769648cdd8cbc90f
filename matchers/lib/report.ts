import { formatToolCalls } from "../../src/trace/format.js";
import type { ToolCall } from "../../src/trace/types.js";
import { hint, type MatcherContext } from "./matcher-context.js";

/** A matcher message: hint, the Expected and Received lines (`expected` already worded for `.not`), then sections. */
export function reportSections(
  context: MatcherContext,
  matcher: string,
  expected: string,
  received: string,
  sections: readonly string[],
): string {
  // Redacted and kept from starting a workflow command by the exit every matcher's result leaves through.
  return [
    hint(context, matcher),
    "",
    `Expected: ${expected}`,
    `Received: ${received}`,
    ...sections.flatMap((section) => ["", section]),
  ].join("\n");
}

/** The most calls a failure lists; a longer turn shows its first and last ones and counts the rest. */
const MAX_LISTED = 20;

/** The message every tool-call matcher prints: hint, expected, received, and the numbered calls. */
export function report(
  context: MatcherContext,
  matcher: string,
  expected: string,
  received: string,
  calls: readonly ToolCall[],
  extra?: string,
): string {
  return reportSections(context, matcher, `${context.isNot ? "not " : ""}${expected}`, received, [
    ...(extra ? [extra] : []),
    `Tool calls (${calls.length}):\n${listCalls(calls)}`,
  ]);
}

function listCalls(calls: readonly ToolCall[]): string {
  if (calls.length <= MAX_LISTED) return formatToolCalls(calls);
  const half = MAX_LISTED / 2;
  const tail = formatToolCalls(calls, "  ").split("\n").slice(-half);
  return [formatToolCalls(calls.slice(0, half)), `  … ${calls.length - MAX_LISTED} more calls …`, ...tail].join("\n");
}

/** A diff of an expected value against an actual one, with the runner's own diff when it has one. */
export function diffSection(context: MatcherContext, title: string, expected: unknown, actual: unknown): string {
  const diff = context.utils.diff?.(expected, actual, { expand: false });
  return `${title}\n${diff ?? `${context.utils.printExpected(expected)}\n${context.utils.printReceived(actual)}`}`;
}
