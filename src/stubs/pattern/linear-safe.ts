import { ANY, classEscapeRanges, complement, intersects, normalize, NOT_LINE_TERMINATOR, type Ranges } from "./char-ranges.js";
import type { AnyPatternNode, PatternNode } from "./parse-pattern.js";

/** The widest an unanchored pattern with only bounded quantifiers may be and still run natively. */
const MAX_UNANCHORED_WIDTH = 64;

type Item =
  | { readonly kind: "anchor"; readonly anchor: string }
  | { readonly kind: "char"; readonly first: Ranges; readonly min: number; readonly max: number };

/**
 * True when V8 can match `pattern` in linear time, proved from its shape, so the native `RegExp` may run it.
 * Conservative: anything it cannot prove goes to the linear-time engine instead. It accepts top-level
 * alternatives, each a flat sequence of single characters (a literal, a class, `\d \w \s`, `.`), optionally
 * quantified, of anchors, and of unquantified groups of literal strings with distinct first characters, where:
 * - every quantifier whose count can vary is disjoint from whatever can follow it, up to the next required
 *   item, so backtracking gives characters back one at a time and each attempt fails at once;
 * - the alternative starts with `^` (one start position), or it is at most 64 characters wide (bounded work
 *   per start position).
 */
export function isLinearSafe(ast: PatternNode): boolean {
  const alternatives = ast.type === "disjunction" ? ast.body : [ast];
  return alternatives.every((alternative) => sequenceSafe(alternative.type === "alternative" ? alternative.body : [alternative]));
}

function sequenceSafe(nodes: readonly AnyPatternNode[]): boolean {
  const items = nodes.map(item);
  if (items.some((entry) => entry === undefined)) return false;
  const chars = (items as Item[]).filter((entry): entry is Extract<Item, { kind: "char" }> => entry.kind === "char");
  for (const [j, current] of chars.entries()) {
    if (current.min === current.max) continue;
    for (const following of chars.slice(j + 1)) {
      if (intersects(current.first, following.first)) return false;
      if (following.min > 0) break;
    }
  }
  const first = items[0];
  const anchored = first?.kind === "anchor" && first.anchor === "start";
  return anchored || chars.reduce((width, entry) => width + entry.max, 0) <= MAX_UNANCHORED_WIDTH;
}

function item(node: AnyPatternNode): Item | undefined {
  if (node.type === "anchor") return { kind: "anchor", anchor: node.kind };
  const single = charSet(node);
  if (single) return { kind: "char", first: single, min: 1, max: 1 };
  if (node.type === "quantifier") {
    const body = node.body.length === 1 ? charSet(node.body[0]) : undefined;
    return body ? { kind: "char", first: body, min: node.min, max: node.max ?? Number.POSITIVE_INFINITY } : undefined;
  }
  if (
    node.type === "group" &&
    (node.behavior === "ignore" || node.behavior === "normal") &&
    !("modifierFlags" in node && node.modifierFlags)
  )
    return literalChoice(node.body);
  return undefined;
}

/** `(foo|bar)`: literal strings with distinct first characters act as one character for backtracking. */
function literalChoice(body: readonly AnyPatternNode[]): Item | undefined {
  const only = body.length === 1 ? body[0] : undefined;
  const alternatives = only?.type === "disjunction" ? only.body : only ? [only] : [{ type: "alternative", body } as AnyPatternNode];
  const firsts: Ranges[] = [];
  for (const alternative of alternatives) {
    const sequence = alternative.type === "alternative" ? alternative.body : [alternative];
    const head = sequence[0];
    if (head === undefined || !sequence.every((node) => node.type === "value") || head.type !== "value") return undefined;
    const range: Ranges = [[head.codePoint, head.codePoint]];
    if (firsts.some((other) => intersects(other, range))) return undefined;
    firsts.push(range);
  }
  return { kind: "char", first: normalize(firsts.flat()), min: 1, max: 1 };
}

/** The set of one code point a node matches, or `undefined` when it matches something else. */
function charSet(node: AnyPatternNode): Ranges | undefined {
  switch (node.type) {
    case "value":
      return [[node.codePoint, node.codePoint]];
    case "dot":
      return NOT_LINE_TERMINATOR;
    case "characterClassEscape":
      return classEscapeRanges(node.value);
    case "unicodePropertyEscape":
      return ANY;
    case "characterClassRange":
      return [[node.min.codePoint, node.max.codePoint]];
    case "characterClass": {
      if (node.kind !== "union") return undefined;
      if (node.body.some((part) => part.type === "unicodePropertyEscape")) return ANY;
      const parts = node.body.map(charSet);
      if (parts.some((part) => part === undefined)) return undefined;
      const union = normalize((parts as Ranges[]).flat());
      return node.negative ? complement(union) : union;
    }
    default:
      return undefined;
  }
}
