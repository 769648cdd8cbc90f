import { plural } from "../exits/excerpt.js";
import { compactJson } from "../exits/excerpt.js";
import { describeDifference, jsonDifferences } from "./json-diff.js";
import type { SnapshotCall, SnapshotTurn, TraceSnapshot } from "./trace-snapshot.js";

/**
 * A structural diff of a stored trace snapshot against a new one, per turn: calls added, removed, moved, and
 * inputs, outputs or turn fields changed at a JSON pointer. Plain text that reads the same in a terminal and in a
 * pull-request comment.
 */
export function diffTraceSnapshots(stored: TraceSnapshot, now: TraceSnapshot): string {
  const lines: string[] = [];
  const count = Math.max(stored.turns.length, now.turns.length);
  for (let t = 0; t < count; t++) {
    const before = stored.turns[t];
    const after = now.turns[t];
    const title = `turn ${t + 1} ${compactJson((after ?? before)?.user ?? "", 60)}`;
    if (before === undefined) {
      lines.push(`+ ${title}: added, with ${plural(after?.calls.length ?? 0, "call")}`);
      continue;
    }
    if (after === undefined) {
      lines.push(`- ${title}: removed (it had ${plural(before.calls.length, "call")})`);
      continue;
    }
    const changes = diffTurn(t, before, after);
    if (changes.length > 0) lines.push(`  ${title}`, ...changes.map((line) => `    ${line}`));
  }
  return lines.length === 0 ? "  (no structural difference: only formatting changed)" : lines.join("\n");
}

function diffTurn(t: number, before: SnapshotTurn, after: SnapshotTurn): string[] {
  const lines: string[] = [];
  const pairs = alignCalls(before.calls, after.calls);
  const removed = pairs.filter((pair) => pair.after === undefined);
  const added = pairs.filter((pair) => pair.before === undefined);
  const moved = new Set<number>();
  for (const pair of removed) {
    const match = added.find(
      (other) => !moved.has(other.after as number) && same(before.calls[pair.before as number], after.calls[other.after as number]),
    );
    if (match) {
      moved.add(match.after as number);
      pair.movedTo = match.after;
    }
  }
  for (const pair of pairs) {
    const { before: b, after: a } = pair;
    if (b !== undefined && a !== undefined) {
      const differences = jsonDifferences(before.calls[b], after.calls[a], 8);
      for (const difference of differences)
        lines.push(
          `~ call ${a + 1} ${nameOf(after.calls[a])}: ${describeDifference({ ...difference, pointer: `/turns/${t}/calls/${a}${difference.pointer === "/" ? "" : difference.pointer}` })}`,
        );
    } else if (b !== undefined) {
      lines.push(
        pair.movedTo !== undefined
          ? `↕ ${nameOf(before.calls[b])}: moved from call ${b + 1} to call ${pair.movedTo + 1}`
          : `- call ${b + 1} ${describeCall(before.calls[b])}: removed`,
      );
    } else if (a !== undefined && !moved.has(a)) {
      lines.push(`+ call ${a + 1} ${describeCall(after.calls[a])}: added`);
    }
  }
  const { calls: _b, ...restBefore } = before;
  const { calls: _a, ...restAfter } = after;
  for (const difference of jsonDifferences(restBefore, restAfter, 8))
    lines.push(`~ ${describeDifference({ ...difference, pointer: `/turns/${t}${difference.pointer === "/" ? "" : difference.pointer}` })}`);
  return lines;
}

interface Pair {
  readonly before?: number;
  readonly after?: number;
  movedTo?: number;
}

/** A longest common subsequence of the calls by name, so a changed input is a change, not a removal and an addition. */
function alignCalls(before: readonly SnapshotCall[], after: readonly SnapshotCall[]): Pair[] {
  const n = before.length;
  const m = after.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const row = table[i] as Uint32Array;
      const below = table[i + 1] as Uint32Array;
      row[j] = nameOf(before[i]) === nameOf(after[j]) ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  const pairs: Pair[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && nameOf(before[i]) === nameOf(after[j])) pairs.push({ before: i++, after: j++ });
    else if (j < m && (i >= n || (table[i]?.[j + 1] ?? 0) >= (table[i + 1]?.[j] ?? 0))) pairs.push({ after: j++ });
    else pairs.push({ before: i++ });
  }
  return pairs;
}

function nameOf(call: SnapshotCall | undefined): string {
  if (call === undefined) return "";
  return "tool" in call ? call.tool : "model" in call ? `model ${call.model}` : call.http;
}

function describeCall(call: SnapshotCall | undefined): string {
  if (call !== undefined && "tool" in call) return `${call.tool}(${compactJson(call.input, 50)})`;
  return nameOf(call);
}

function same(a: SnapshotCall | undefined, b: SnapshotCall | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
