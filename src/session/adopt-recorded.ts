import { TooltraceError } from "../exits/errors.js";
import type { TurnRecord } from "../trace/records.js";
import type { Interaction, ToolCall } from "../trace/types.js";
import type { SessionParts } from "./session-parts.js";
import type { RecordedCalls } from "./types.js";

type AdoptingParts = Pick<SessionParts, "log" | "rules" | "pipeline">;

const KINDS = new Set(["tool", "model", "http"]);
const RECORDED = Symbol.for("tooltrace.recordedCalls");

/**
 * An agent's failure carrying the calls its own recorder made before it failed (a deployed agent's server
 * that answered 5xx): the failed turn keeps them, as a local agent's failed turn keeps its calls.
 */
export function withRecordedCalls<E extends Error>(error: E, recorded: RecordedCalls): E {
  Object.defineProperty(error, RECORDED, { value: recorded, enumerable: false });
  return error;
}

/** The calls a failure carries (see {@link withRecordedCalls}). */
export function recordedCallsOf(error: unknown): RecordedCalls | undefined {
  return error !== null && typeof error === "object"
    ? ((error as Record<symbol, RecordedCalls | undefined>)[RECORDED] ?? undefined)
    : undefined;
}

/**
 * Writes calls recorded where the agent ran (a deployed agent's server) into `turn`: numbered after the log's
 * own, on the session's clock, their violations reported as the session's own. Each call a stub answered is
 * selected again from the session's rules, so the rule counts as used and its sequence stands where the
 * recorder left it.
 */
export function adoptRecorded(parts: AdoptingParts, turn: TurnRecord, recorded: RecordedCalls): void {
  const records: unknown = recorded.interactions;
  if (!Array.isArray(records) || !records.every(isRecord))
    throw new TooltraceError("the agent returned `recorded` calls that are not trace records: `interactions` must be their JSON form.");
  const shift = turn.start + (recorded.startedAfterMs ?? 0);
  const seqs = new Map<number, number>();
  for (const record of records) {
    seqs.set(record.seq, parts.log.interactions.length + 1);
    const clock = { start: record.start + shift, ...(record.end === undefined ? {} : { end: record.end + shift }) };
    const parent = record.kind === "http" && record.parentSeq !== undefined ? { parentSeq: seqs.get(record.parentSeq) } : {};
    parts.log.adopt(turn, { ...record, ...clock, ...parent } as Interaction);
    if (record.kind === "tool") reselect(parts, turn, record);
  }
  for (const violation of recorded.violations ?? []) parts.pipeline.report(String(violation), turn);
}

/** A recorder that picked another rule or outcome than the session's rules pick did not run them: that fails the test. */
function reselect({ rules, pipeline }: AdoptingParts, turn: TurnRecord, call: ToolCall): void {
  const answered = call.answeredBy;
  // A rule's fault where the agent ran: the same rule's faults count it here too.
  if (answered?.kind === "fault" && answered.where.startsWith("stub rule")) rules.select(call.qualifiedName, call.input);
  if (answered?.kind !== "stub") return;
  const selected = rules.select(call.qualifiedName, call.input);
  if (selected?.ruleId === answered.ruleId && selected.outcomeIndex === answered.outcomeIndex) return;
  const local = selected === undefined ? "no rule" : `rule "${selected.ruleId}" (outcome ${selected.outcomeIndex})`;
  pipeline.report(
    `${call.qualifiedName} was answered by stub rule "${answered.ruleId}" (outcome ${answered.outcomeIndex}) where the agent ran, and this session's rules pick ${local}: the agent's server did not apply this session's rules.`,
    turn,
  );
}

function isRecord(value: unknown): value is Interaction {
  const record = value as Partial<Interaction> | null;
  return (
    record !== null &&
    typeof record === "object" &&
    KINDS.has(String(record.kind)) &&
    typeof record.seq === "number" &&
    typeof record.start === "number" &&
    (record.kind !== "tool" || (typeof record.qualifiedName === "string" && typeof record.tool === "string"))
  );
}
