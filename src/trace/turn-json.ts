import { toJsonValue } from "../base/json-value.js";
import { requestJson, type SharedJson } from "./request-json.js";
import type { Interaction, Turn } from "./types.js";

import { TRACE_FORMAT_VERSION } from "./format-version.js";

export { TRACE_FORMAT_VERSION };

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
  return turnJson(turn, new Map());
}

/** The JSON form of a session's turns, one copy of each message shared by every request that repeats it. */
export function turnsToJson(turns: readonly Turn[]): TurnJson[] {
  const shared: SharedJson = new Map();
  return turns.map((turn) => turnJson(turn, shared));
}

function turnJson(turn: Turn, shared: SharedJson): TurnJson {
  return {
    version: TRACE_FORMAT_VERSION,
    index: turn.index,
    userMessage: turn.userMessage,
    ...(turn.originalUserMessage !== undefined ? { originalUserMessage: turn.originalUserMessage } : {}),
    status: turn.status,
    text: turn.text,
    assistantTexts: [...turn.assistantTexts],
    usage: { ...turn.usage },
    ...(turn.costUsd !== undefined ? { costUsd: turn.costUsd } : {}),
    ...(turn.unpricedCalls !== undefined ? { unpricedCalls: turn.unpricedCalls } : {}),
    violations: [...turn.violations],
    ...(turn.error ? { error: { name: turn.error.name, message: turn.error.message } } : {}),
    startedAt: turn.startedAt,
    durationMs: turn.durationMs,
    toolCalls: turn.toolCalls.map((call) => interactionToJson(call, shared)),
    modelCalls: turn.modelCalls.map((call) => interactionToJson(call, shared)),
    httpCalls: turn.httpCalls.map((call) => interactionToJson(call, shared)),
    // A report written before judges' calls were kept has none.
    judgeCalls: (turn.judgeCalls ?? []).map((call) => interactionToJson(call, shared)),
    tools: [...turn.tools],
    results: toJsonValue(turn.results) as Record<string, unknown>,
    ...(turn.scores !== undefined ? { scores: turn.scores.map((record) => ({ ...record })) } : {}),
  };
}

/** One record of the log as JSON, keys in a fixed order. Written field by field: this runs for every call of every test. */
export function interactionToJson<T extends Interaction>(record: T, shared?: SharedJson): T {
  // A closed record's parts are never written again (the log replaces them), and already JSON: the form keeps
  // them as they are rather than copying, which is most of its weight in a long run.
  const json: Record<string, unknown> = { seq: record.seq, kind: record.kind, turnIndex: record.turnIndex, status: record.status };
  if (record.answeredBy) json.answeredBy = toJsonValue(record.answeredBy);
  if (record.error) json.error = toJsonValue(record.error);
  if (record.changes) json.changes = toJsonValue(record.changes);
  if (record.late) json.late = true;
  json.startedAt = record.startedAt;
  json.start = microseconds(record.start);
  if (record.end !== undefined) {
    json.end = microseconds(record.end);
    json.durationMs = record.durationMs === undefined ? undefined : microseconds(record.durationMs);
  }
  switch (record.kind) {
    case "tool":
      json.id = record.id;
      json.tool = record.tool;
      json.path = toJsonValue(record.path);
      json.qualifiedName = record.qualifiedName;
      json.input = toJsonValue(record.input);
      if ("originalInput" in record) json.originalInput = toJsonValue(record.originalInput);
      if (record.output !== undefined) json.output = toJsonValue(record.output);
      break;
    case "model":
      json.provider = record.provider;
      json.model = record.model;
      json.path = toJsonValue(record.path);
      json.streamed = record.streamed;
      if (record.step !== undefined) json.step = record.step;
      if (record.http) json.http = toJsonValue(record.http);
      if (record.judge !== undefined) json.judge = record.judge;
      json.request = requestJson(record.request, shared ?? new Map());
      json.reply = toJsonValue(record.reply);
      json.usage = toJsonValue(record.usage);
      if (record.costUsd !== undefined) json.costUsd = record.costUsd;
      if (record.providerWait !== undefined) json.providerWait = { ...record.providerWait };
      break;
    case "http":
      json.method = record.method;
      json.url = record.url;
      if (record.requestBody !== undefined) json.requestBody = toJsonValue(record.requestBody);
      if (record.statusCode !== undefined) json.statusCode = record.statusCode;
      if (record.parentSeq !== undefined) json.parentSeq = record.parentSeq;
      break;
  }
  return json as T;
}

/** A clock reading in milliseconds, kept to the microsecond: the clock's own noise is coarser. */
function microseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
