import { PREFIX } from "../exits/errors.js";
import { compactJson, oneLine } from "../exits/excerpt.js";
import type { AnswerSource, HttpCall, Interaction, ModelCall, ToolCall } from "./types.js";

/** `stub "tasks" #2`, `real tool`, ... */
export function formatSource(source: AnswerSource | undefined, kind: Interaction["kind"] = "tool"): string {
  if (source === undefined) return "not answered";
  switch (source.kind) {
    case "stub":
      return `${kind === "http" ? "HTTP mock" : "stub"} "${source.ruleId}" #${source.outcomeIndex + 1}`;
    case "real":
      return kind === "tool" ? "real tool" : kind === "http" ? "network" : "real model";
    case "mock-model":
      return "mock model";
    case "msw-handler":
      return "your MSW handler";
    case "strict":
      return "strict mode: no rule matched";
    case "middleware":
      return `middleware "${source.name}"`;
    case "cassette":
      return `cassette, recorded call ${source.entry + 1}`;
    case "outside":
      return "never reached tooltrace";
    case "fault":
      return `fault ${source.fault} (${source.where})`;
  }
}

/** One call as a line: `list_tasks({"status":"open"}) → completed [stub "tasks" #1]`. */
export function formatToolCall(call: ToolCall): string {
  // A refusal by strict mode or a cassette is a violation of the session, said whole where the test fails.
  const said = call.status === "rejected" && (call.answeredBy?.kind === "strict" || call.answeredBy?.kind === "cassette");
  const result =
    call.status === "completed"
      ? `completed ${compactJson(call.output, 80)}`
      : call.error && !said
        ? `${call.status}: ${call.error.name === "Error" ? "" : `${call.error.name}: `}${firstSentence(call.error.message)}`
        : call.status;
  return `${call.qualifiedName}(${compactJson(call.input)}) → ${result} [${formatSource(call.answeredBy)}]${call.late ? " (late)" : ""}`;
}

/** The numbered list of calls that every matcher prints on failure. */
export function formatToolCalls(calls: readonly ToolCall[], indent = "  "): string {
  if (calls.length === 0) return `${indent}(no tool calls)`;
  return calls.map((call, i) => `${indent}${i + 1}. ${formatToolCall(call)}`).join("\n");
}

/** What an unfinished interaction is waiting on, for a timeout message. */
export function describePending(record: Interaction, now: number): string {
  const waited = `pending for ${Math.round(now - record.start)} ms`;
  switch (record.kind) {
    case "tool":
      return `tool call ${record.qualifiedName}(${compactJson(record.input)}) [${record.answeredBy ? formatSource(record.answeredBy) : "real tool"}], ${waited}`;
    case "model":
      return `${describeModelCall(record)}, ${waited}`;
    case "http":
      return `HTTP ${record.method} ${record.url}, ${waited}`;
  }
}

function describeModelCall(call: ModelCall): string {
  const last = (call.request as { lastUserMessage?: unknown } | undefined)?.lastUserMessage;
  const step = call.step !== undefined ? ` (script step ${call.step})` : "";
  const via = call.http ? ` via ${call.http.method} ${call.http.url}` : "";
  return `model call to ${call.provider} ${call.model}${step}${via}, last user message ${compactJson(last ?? null, 80)}`;
}

/** One HTTP exchange as a line. */
export function formatHttpCall(call: HttpCall): string {
  const result =
    call.statusCode !== undefined ? String(call.statusCode) : call.error ? `${call.status}: ${oneLine(call.error.message)}` : call.status;
  return `${call.method} ${call.url} → ${result} [${formatSource(call.answeredBy, "http")}]`;
}

/**
 * An error in a call's line: its first sentence, without tooltrace's prefix. The whole message (a strict
 * refusal, a cassette mismatch) is said once, in the failure it caused; the line only names it.
 */
function firstSentence(text: string): string {
  const bare = text.startsWith(`${PREFIX} `) ? text.slice(PREFIX.length + 1) : text;
  const end = bare.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? bare : bare.slice(0, end + 1);
  return oneLine(sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence);
}
