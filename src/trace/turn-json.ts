import { toJsonValue } from "./json-value.js";
import type { HttpCall, Interaction, ModelCall, ToolCall, Turn } from "./types.js";

/** The version of the trace's JSON form. It changes only when a field changes meaning or goes away. */
export const TRACE_FORMAT_VERSION = 1;

/**
 * The JSON form of a turn: what the Vitest plugin puts on `task.meta.tooltrace`, and what reporters,
 * cassettes and viewers read. It is a {@link Turn} (the matchers accept it as one) with a `version`, and
 * only JSON values: inputs, outputs and requests are copied with {@link toJsonValue}. Keys come in a fixed
 * order. The three call lists are views of one log: merge them by `seq` to get the order of everything.
 */
export interface TurnJson extends Turn {
  readonly version: typeof TRACE_FORMAT_VERSION;
}

/** The JSON form of a turn (see {@link TurnJson}). */
export function turnToJson(turn: Turn): TurnJson {
  return {
    version: TRACE_FORMAT_VERSION,
    index: turn.index,
    userMessage: turn.userMessage,
    status: turn.status,
    text: turn.text,
    assistantTexts: [...turn.assistantTexts],
    usage: { ...turn.usage },
    violations: [...turn.violations],
    ...(turn.error ? { error: { name: turn.error.name, message: turn.error.message } } : {}),
    startedAt: turn.startedAt,
    durationMs: turn.durationMs,
    toolCalls: turn.toolCalls.map((call) => interactionToJson(call)),
    modelCalls: turn.modelCalls.map((call) => interactionToJson(call)),
    httpCalls: turn.httpCalls.map((call) => interactionToJson(call)),
  };
}

/** One record of the log as JSON, keys in a fixed order. */
export function interactionToJson<T extends Interaction>(record: T): T {
  const base = {
    seq: record.seq,
    kind: record.kind,
    turnIndex: record.turnIndex,
    status: record.status,
    ...(record.answeredBy ? { answeredBy: { ...record.answeredBy } } : {}),
    ...(record.error ? { error: { name: record.error.name, message: record.error.message } } : {}),
    ...(record.changes ? { changes: record.changes.map((change) => ({ ...change })) } : {}),
    ...(record.late ? { late: true } : {}),
    startedAt: record.startedAt,
    start: record.start,
    ...(record.end !== undefined ? { end: record.end, durationMs: record.durationMs } : {}),
  };
  return { ...base, ...kindFields(record) } as T;
}

function kindFields(record: Interaction): object {
  switch (record.kind) {
    case "tool":
      return toolFields(record);
    case "model":
      return modelFields(record);
    case "http":
      return httpFields(record);
  }
}

function toolFields(call: ToolCall): object {
  return {
    id: call.id,
    tool: call.tool,
    path: [...call.path],
    qualifiedName: call.qualifiedName,
    input: toJsonValue(call.input),
    ...("originalInput" in call ? { originalInput: toJsonValue(call.originalInput) } : {}),
    ...(call.output !== undefined ? { output: toJsonValue(call.output) } : {}),
  };
}

function modelFields(call: ModelCall): object {
  return {
    provider: call.provider,
    model: call.model,
    path: [...call.path],
    streamed: call.streamed,
    ...(call.step !== undefined ? { step: call.step } : {}),
    ...(call.http ? { http: { ...call.http } } : {}),
    request: toJsonValue(call.request),
    reply: toJsonValue(call.reply),
    usage: { ...call.usage },
  };
}

function httpFields(call: HttpCall): object {
  return {
    method: call.method,
    url: call.url,
    ...(call.statusCode !== undefined ? { statusCode: call.statusCode } : {}),
    ...(call.parentSeq !== undefined ? { parentSeq: call.parentSeq } : {}),
  };
}
