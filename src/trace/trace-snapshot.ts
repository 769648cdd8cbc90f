import type { AnswerSource, HttpCall, ModelCall, ToolCall, Turn } from "./types.js";

/** What a trace snapshot keeps. */
export interface TraceSnapshotOptions {
  /** Model calls (their model, the tools they asked for, their text). Default true. */
  readonly models?: boolean;
  /** HTTP requests (method, URL, status). Default true. */
  readonly http?: boolean;
  /** Fields left out by default that this snapshot keeps: token usage, durations, call ids. */
  readonly keep?: readonly ("usage" | "durations" | "ids")[];
  /**
   * Fields dropped wherever they occur in inputs and outputs (`"createdAt"`), or JSON pointers into the
   * snapshot with `*` for any one segment (`"/turns/*\/text"`).
   */
  readonly drop?: readonly string[];
}

/** One call as a snapshot holds it. */
export type SnapshotCall =
  | {
      readonly tool: string;
      readonly input: unknown;
      readonly output?: unknown;
      readonly status?: string;
      readonly error?: string;
      readonly answeredBy: string;
    }
  | { readonly model: string; readonly toolCalls: readonly string[]; readonly text?: string }
  | { readonly http: string; readonly status?: number };

/** A turn as a snapshot holds it: only what is stable from run to run. */
export interface SnapshotTurn {
  readonly user: string;
  readonly status: string;
  readonly calls: readonly SnapshotCall[];
  readonly text: string;
  readonly violations?: readonly string[];
}

/** A trace normalized for a snapshot. */
export interface TraceSnapshot {
  readonly turns: readonly SnapshotTurn[];
}

/**
 * The stable part of these turns: ids, clocks, durations, usage and seeds are left out (unless kept), so a
 * rerun of a deterministic eval gives the same snapshot.
 */
export function traceSnapshot(turns: readonly Turn[], options: TraceSnapshotOptions = {}): TraceSnapshot {
  const keep = new Set(options.keep ?? []);
  const keys = new Set((options.drop ?? []).filter((entry) => !entry.startsWith("/")));
  const pointers = (options.drop ?? []).filter((entry) => entry.startsWith("/")).map((entry) => entry.split("/").slice(1));
  const clean = (value: unknown) => dropKeys(value, keys);
  const snapshot: TraceSnapshot = {
    turns: turns.map((turn) => {
      const records = [
        ...turn.toolCalls,
        ...(options.models === false ? [] : turn.modelCalls),
        ...(options.http === false ? [] : (turn.httpCalls ?? [])),
      ].sort((a, b) => a.seq - b.seq);
      const calls = records.map((record) => withKept(callOf(record, clean), record, keep));
      return {
        user: turn.userMessage,
        status: turn.status,
        calls,
        text: turn.text,
        ...(turn.violations.length > 0 ? { violations: turn.violations } : {}),
        ...(keep.has("usage") ? { usage: turn.usage } : {}),
        ...(keep.has("durations") ? { durationMs: turn.durationMs } : {}),
      };
    }),
  };
  return pointers.length === 0 ? snapshot : (dropPointers(snapshot, pointers) as TraceSnapshot);
}

/** The snapshot as the text stored in the snapshot file: indented JSON. */
export function traceSnapshotText(turns: readonly Turn[], options?: TraceSnapshotOptions): string {
  return JSON.stringify(traceSnapshot(turns, options), null, 2);
}

function callOf(record: ToolCall | ModelCall | HttpCall, clean: (value: unknown) => unknown): SnapshotCall {
  if (record.kind === "tool") {
    return {
      tool: record.qualifiedName,
      input: clean(record.input),
      ...(record.status === "completed" ? { output: clean(record.output) } : { status: record.status }),
      ...(record.error ? { error: record.error.message } : {}),
      answeredBy: sourceLabel(record.answeredBy),
    };
  }
  if (record.kind === "model") {
    return {
      model: record.model,
      toolCalls: record.reply.toolCalls.map((call) => call.name),
      ...(record.reply.text !== "" ? { text: record.reply.text } : {}),
    };
  }
  return { http: `${record.method} ${record.url}`, ...(record.statusCode !== undefined ? { status: record.statusCode } : {}) };
}

function withKept(call: SnapshotCall, record: ToolCall | ModelCall | HttpCall, keep: ReadonlySet<string>): SnapshotCall {
  const extra: Record<string, unknown> = {};
  if (keep.has("ids") && record.kind === "tool") extra.id = record.id;
  if (keep.has("durations") && record.durationMs !== undefined) extra.durationMs = record.durationMs;
  if (keep.has("usage") && record.kind === "model") extra.usage = record.usage;
  return Object.keys(extra).length === 0 ? call : ({ ...call, ...extra } as SnapshotCall);
}

function dropKeys(value: unknown, keys: ReadonlySet<string>): unknown {
  if (keys.size === 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => dropKeys(item, keys));
  // A Date, a Map, a class instance: kept whole, as JSON would write it.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !keys.has(key))
      .map(([key, item]) => [key, dropKeys(item, keys)]),
  );
}

function dropPointers(value: unknown, pointers: readonly string[][], depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  const live = pointers.filter((segments) => segments.length > depth);
  if (live.length === 0) return value;
  const hits = (key: string) =>
    live.some((segments) => segments.length === depth + 1 && (segments[depth] === "*" || segments[depth] === key));
  const deeper = (key: string) => live.filter((segments) => segments[depth] === "*" || segments[depth] === key);
  if (Array.isArray(value)) return value.flatMap((item, i) => (hits(String(i)) ? [] : [dropPointers(item, deeper(String(i)), depth + 1)]));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !hits(key))
      .map(([key, item]) => [key, dropPointers(item, deeper(key), depth + 1)]),
  );
}

/** `stub tasks #1`, `real`, `cassette #3`: who answered, without quotes to escape in a snapshot file. */
function sourceLabel(source: AnswerSource | undefined): string {
  if (source === undefined) return "none";
  switch (source.kind) {
    case "stub":
      return `stub ${source.ruleId} #${source.outcomeIndex + 1}`;
    case "cassette":
      return `cassette #${source.entry + 1}`;
    case "middleware":
      return `middleware ${source.name}`;
    default:
      return source.kind;
  }
}
