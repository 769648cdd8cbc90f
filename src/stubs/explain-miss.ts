import { compactJson, excerpt } from "../exits/excerpt.js";
import { ajvValidator } from "./ajv-validator.js";
import type { MatchSchema, ToolStubMatch } from "./types.js";

/** A rule of one tool, as far as saying why it missed needs it. */
export interface MissedRule {
  readonly id: string;
  readonly match: ToolStubMatch | undefined;
}

/**
 * Why no rule of a tool matched `input`: the closest rule (the one with the most of its constraints met,
 * the first among equals) and the first of its constraints the call failed, with its JSON pointer in the
 * rule (`/match/orderId`) and what the call has there. `undefined` when the tool has no rules.
 */
export function explainMiss(rules: readonly MissedRule[], input: unknown): string | undefined {
  let best: { rule: MissedRule; met: number; failed: [string, MatchSchema] | undefined } | undefined;
  for (const rule of rules) {
    const entries = Object.entries(rule.match ?? {}).filter((entry): entry is [string, MatchSchema] => entry[1] !== undefined);
    let met = 0;
    let failed: [string, MatchSchema] | undefined;
    for (const [key, schema] of entries) {
      if (fits(schema, valueAt(input, key))) met += 1;
      else failed ??= [key, schema];
    }
    if (best === undefined || met > best.met) best = { rule, met, failed };
  }
  if (best === undefined) return undefined;
  if (best.failed === undefined) return `The closest rule, "${best.rule.id}", matches this input: it is used up or placed after another.`;
  const [key, schema] = best.failed;
  const has = valueAt(input, key);
  return `The closest rule, "${best.rule.id}", failed at /match/${escapePointer(key)}: ${describe(schema)} (the call has ${has === undefined ? "no such field" : excerpt(compactJson(has), 80)}).`;
}

function fits(schema: MatchSchema, value: unknown): boolean {
  if (value === undefined) return false;
  try {
    return ajvValidator(schema as object)(value);
  } catch {
    return false;
  }
}

function valueAt(input: unknown, key: string): unknown {
  return input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>)[key] : undefined;
}

/** The constraint in a few words: its keywords and their values, cut short. */
function describe(schema: MatchSchema): string {
  const parts = Object.entries(schema as Record<string, unknown>).map(
    ([keyword, value]) => `${keyword} ${excerpt(compactJson(value), 60)}`,
  );
  return parts.join(", ") || "{}";
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
