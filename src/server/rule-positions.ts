import type { ToolStub } from "../stubs/types.js";
import type { Interaction } from "../trace/types.js";

/** A session's rules as one request of it must run them, and how far each rule's sequence was moved. */
export interface PositionedRules {
  readonly stubs: readonly ToolStub[];
  /** By rule id: how many outcomes were dropped from the front (add it back to a recorded `outcomeIndex`). */
  readonly offsets: ReadonlyMap<string, number>;
}

/**
 * The rules with each sequence where the session's earlier calls left it: a server builds its rules afresh
 * for every request, so a rule that answered twice before starts this request at its third outcome (or its
 * last, which repeats). Counted from the calls in `interactions` a stub rule answered.
 */
export function positionedRules(stubs: readonly ToolStub[], interactions: readonly Interaction[]): PositionedRules {
  const used = new Map<string, number>();
  for (const record of interactions) {
    if (record.kind === "tool" && record.answeredBy?.kind === "stub")
      used.set(record.answeredBy.ruleId, (used.get(record.answeredBy.ruleId) ?? 0) + 1);
  }
  const offsets = new Map<string, number>();
  const moved = stubs.map((rule): ToolStub => {
    const { outcomes } = rule;
    const offset = outcomes === undefined ? 0 : Math.min(used.get(rule.id) ?? 0, outcomes.length - 1);
    if (outcomes === undefined || offset <= 0) return rule;
    offsets.set(rule.id, offset);
    return { id: rule.id, tool: rule.tool, ...(rule.match === undefined ? {} : { match: rule.match }), outcomes: outcomes.slice(offset) };
  });
  return { stubs: moved, offsets };
}

/** A record of the server's, its `outcomeIndex` counted from the start of the rule's whole sequence again. */
export function withOffsets(record: Interaction, offsets: ReadonlyMap<string, number>): Interaction {
  if (record.kind !== "tool" || record.answeredBy?.kind !== "stub") return record;
  const offset = offsets.get(record.answeredBy.ruleId) ?? 0;
  if (offset === 0) return record;
  return { ...record, answeredBy: { ...record.answeredBy, outcomeIndex: record.answeredBy.outcomeIndex + offset } };
}
