import type { ToolCall, ToolCallSource } from "./types.js";

/** JSON of a value for a one-line message, shortened past `max` characters. */
export function compactJson(value: unknown, max = 120): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `stub "tasks" #2`, `real tool`, ... */
export function formatSource(source: ToolCallSource | undefined): string {
  if (source === undefined) return "not answered";
  switch (source.kind) {
    case "stub":
      return `stub "${source.ruleId}" #${source.outcomeIndex + 1}`;
    case "real":
      return "real tool";
    case "strict":
      return "strict mode: no rule matched";
    case "middleware":
      return `middleware "${source.name}"`;
  }
}

/** One call as a line: `list_tasks({"status":"open"}) → completed [stub "tasks" #1]`. */
export function formatToolCall(call: ToolCall): string {
  const result =
    call.status === "completed"
      ? `completed ${compactJson(call.output, 80)}`
      : call.error
        ? `${call.status}: ${call.error.name === "Error" ? "" : `${call.error.name}: `}${call.error.message}`
        : call.status;
  return `${call.qualifiedName}(${compactJson(call.input)}) → ${result} [${formatSource(call.answeredBy)}]`;
}

/** The numbered list of calls that every matcher prints on failure. */
export function formatToolCalls(calls: readonly ToolCall[], indent = "  "): string {
  if (calls.length === 0) return `${indent}(no tool calls)`;
  return calls.map((call, i) => `${indent}${i + 1}. ${formatToolCall(call)}`).join("\n");
}
