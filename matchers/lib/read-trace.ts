import { suggestName } from "../../src/stubs/suggest.js";
import type { ToolCall, Turn } from "../../src/trace/types.js";
import { offeredTools } from "./model-calls.js";
import { TooltraceError } from "../../src/exits/errors.js";

/** What a matcher reads from whatever it was given. */
export interface TraceView {
  readonly kind: "turn" | "session" | "calls";
  readonly calls: readonly ToolCall[];
  readonly turns: readonly Turn[];
}

/**
 * Throws when `name` is no tool the trace knows (the session's tools, the tools offered to the model, the
 * calls made), saying which name is close: otherwise `expect(turn).not.toHaveCalledTool("complete_tsk")`
 * would pass for a typo.
 */
export function checkToolName(matcher: string, name: string, trace: TraceView): void {
  // A list of calls may be filtered on purpose: only a turn or a session knows its tools.
  if (trace.kind === "calls") return;
  // A passing assertion's name is among the calls or the turn's tools: found without listing every offered tool.
  if (trace.calls.some((call) => call.qualifiedName === name) || trace.turns.some((turn) => turn.tools?.includes(name))) return;
  const known = new Set<string>(trace.calls.map((call) => call.qualifiedName));
  for (const turn of trace.turns) {
    for (const tool of turn.tools ?? []) known.add(tool);
    for (const call of turn.modelCalls) for (const tool of offeredTools(call)) known.add(tool);
  }
  if (known.size === 0 || known.has(name)) return;
  const near = suggestName(name, known);
  const listed = [...known].sort().join(", ");
  throw new TooltraceError(
    `${matcher}: no tool "${name}" in this ${trace.kind}${near ? `; did you mean "${near}"?` : "."} Tools: ${listed}.`,
  );
}

/** Reads a turn, a session (all its turns) or an array of tool calls; `undefined` for anything else. */
export function readTrace(received: unknown): TraceView | undefined {
  if (Array.isArray(received)) {
    if (received.every(isToolCall)) return { kind: "calls", calls: received, turns: [] };
    return undefined;
  }
  if (received === null || typeof received !== "object") return undefined;
  if (isTurn(received)) return { kind: "turn", calls: received.toolCalls, turns: [received] };
  const holder = received as { turns?: unknown };
  if (Array.isArray(holder.turns) && holder.turns.every(isTurn)) {
    const turns = holder.turns as Turn[];
    return { kind: "session", calls: turns.flatMap((turn) => turn.toolCalls), turns };
  }
  return undefined;
}

/** The failure message for a value that is not a trace. */
export function notATrace(matcher: string, received: unknown): string {
  const what = received === null ? "null" : Array.isArray(received) ? "an array that is not tool calls" : typeof received;
  return `${matcher} reads a turn (from session.send), a session, or an array of tool calls; received ${what}.`;
}

function isTurn(value: unknown): value is Turn {
  return (
    value !== null &&
    typeof value === "object" &&
    Array.isArray((value as Turn).toolCalls) &&
    typeof (value as Turn).userMessage === "string"
  );
}

function isToolCall(value: unknown): value is ToolCall {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as ToolCall).qualifiedName === "string" &&
    typeof (value as ToolCall).status === "string"
  );
}
