import { randomUUID } from "node:crypto";
import { redactForReport } from "../exits/redact.js";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import type { TurnJson } from "../trace/turn-json.js";

/** A turn's lists of calls: what makes a test's trace large. */
const CALL_LISTS = ["toolCalls", "modelCalls", "judgeCalls", "httpCalls"] as const;

type Session = TooltraceTaskMeta["sessions"][number];
type Call = TurnJson[(typeof CALL_LISTS)[number]][number];

/** How many calls a test's sessions recorded, in every turn's lists. */
export function traceCalls(meta: TooltraceTaskMeta | undefined): number {
  let count = 0;
  for (const session of meta?.sessions ?? [])
    for (const turn of session.turns) for (const list of CALL_LISTS) count += turn[list]?.length ?? 0;
  return count;
}

/** `meta` with each turn's lists cut to the calls `keep` keeps: a new object, `meta` untouched. */
function withCalls(
  meta: TooltraceTaskMeta,
  keep: (turn: TurnJson, list: (typeof CALL_LISTS)[number]) => readonly Call[],
): TooltraceTaskMeta {
  const sessions = meta.sessions.map(
    (session): Session => ({
      ...session,
      turns: session.turns.map((turn) => {
        const cut: Record<string, readonly Call[]> = {};
        for (const list of CALL_LISTS) if (turn[list] !== undefined) cut[list] = keep(turn, list);
        return { ...turn, ...cut } as TurnJson;
      }),
    }),
  );
  return { ...meta, sessions };
}

/**
 * A trace's first `count` calls (in each turn's order, by `seq`, turn after turn), the rest left out, redacted:
 * what the page shows of a large test at once, while the whole trace is on its way.
 */
export function firstCalls(meta: TooltraceTaskMeta, count: number): TooltraceTaskMeta {
  let left = count;
  const last = new Map<TurnJson, number>();
  for (const session of meta.sessions)
    for (const turn of session.turns) {
      const seqs = CALL_LISTS.flatMap((list) => (turn[list] ?? []).map((call) => call.seq)).sort((a, b) => a - b);
      last.set(turn, left > 0 && seqs.length > 0 ? (seqs[Math.min(left, seqs.length) - 1] as number) : Number.NEGATIVE_INFINITY);
      left -= Math.min(Math.max(left, 0), seqs.length);
    }
  return redactForReport(
    withCalls(meta, (turn, list) => {
      const until = last.get(turn) ?? Number.NEGATIVE_INFINITY;
      return (turn[list] ?? []).filter((call) => call.seq <= until);
    }),
  );
}

/** One slice of one list of one turn, as {@link redactInSlices} works through them. */
interface Slice {
  readonly turn: TurnJson;
  readonly list: (typeof CALL_LISTS)[number];
  readonly from: number;
}

/** JSON of `value`, each string of `parts`' keys in it (a whole value) replaced by that part's JSON. */
function jsonWith(value: unknown, parts: ReadonlyMap<string, string>): string {
  let json = JSON.stringify(value);
  for (const [mark, part] of parts) json = json.replace(JSON.stringify(mark), () => part);
  return json;
}

/** `test`'s JSON, its `meta` given as JSON already (see {@link redactInSlices}). */
export function jsonWithMeta(test: object, meta: string): string {
  const mark = randomUUID();
  return jsonWith({ ...test, meta: mark }, new Map([[mark, meta]]));
}

/**
 * The whole trace redacted as `redactForReport` would redact it at once, but `size` calls at a time, a slice per
 * turn of the event loop: the process (Vitest's main thread, in watch mode) answers in between. The redaction
 * reads no field's parents, so the trace without its calls and each slice of calls redact alone as they would
 * together. Each slice is turned into JSON as it is redacted. Calls `done` with the redacted trace and its JSON,
 * unless the returned function cancelled it first.
 */
export function redactInSlices(
  meta: TooltraceTaskMeta,
  size: number,
  done: (redacted: TooltraceTaskMeta, json: string) => void,
): () => void {
  const slices: Slice[] = [];
  for (const session of meta.sessions)
    for (const turn of session.turns)
      for (const list of CALL_LISTS) for (let from = 0; from < (turn[list]?.length ?? 0); from += size) slices.push({ turn, list, from });
  // Each turn's lists as redacted so far: the calls, and their slices' JSON (without the list's brackets).
  const redacted = new Map<TurnJson, Map<string, { calls: Call[]; json: string[] }>>();
  let cancelled = false;
  let next = 0;
  const finish = (): void => {
    const skeleton = redactForReport(withCalls(meta, () => []));
    // The skeleton's turns are in meta's order: each gets its lists back, redacted.
    const turns = meta.sessions.flatMap((session) => session.turns);
    const lists = (at: number) => [...(redacted.get(turns[at] as TurnJson) ?? [])];
    const whole = rebuilt(skeleton, (at) => Object.fromEntries(lists(at).map(([list, { calls }]) => [list, calls])));
    // The same in JSON: each list a mark, replaced by its slices' JSON.
    const parts = new Map<string, string>();
    const shape = rebuilt(skeleton, (at) =>
      Object.fromEntries(
        lists(at).map(([list, { json }]) => {
          const mark = randomUUID();
          parts.set(mark, `[${json.join(",")}]`);
          return [list, mark];
        }),
      ),
    );
    done(whole, jsonWith(shape, parts));
  };
  const step = (): void => {
    if (cancelled) return;
    const slice = slices[next++];
    if (slice === undefined) {
      finish();
      return;
    }
    const calls = redactForReport((slice.turn[slice.list] ?? []).slice(slice.from, slice.from + size));
    const byList = redacted.get(slice.turn) ?? new Map<string, { calls: Call[]; json: string[] }>();
    redacted.set(slice.turn, byList);
    const list = byList.get(slice.list) ?? { calls: [], json: [] };
    byList.set(slice.list, list);
    list.calls.push(...calls);
    list.json.push(JSON.stringify(calls).slice(1, -1));
    setImmediate(step);
  };
  setImmediate(step);
  return () => {
    cancelled = true;
  };
}

/** `skeleton` with each turn's fields from `lists` (by the turn's place among all the sessions' turns) added. */
function rebuilt(skeleton: TooltraceTaskMeta, lists: (at: number) => Record<string, unknown>): TooltraceTaskMeta {
  let at = 0;
  return {
    ...skeleton,
    sessions: skeleton.sessions.map((session) => ({
      ...session,
      turns: session.turns.map((turn) => ({ ...turn, ...lists(at++) }) as TurnJson),
    })),
  };
}
