import { ANY, classEscapeRanges, complement, normalize, NOT_LINE_TERMINATOR, type Ranges } from "./char-ranges.js";
import type { AnyPatternNode } from "./parse-pattern.js";

/** A pattern feature the linear-time engine cannot run, with what to write instead. */
export class UnsupportedPatternFeature extends Error {
  override readonly name = "UnsupportedPatternFeature";
  constructor(
    readonly feature: string,
    readonly fix: string,
  ) {
    super(`${feature} cannot be matched in linear time`);
  }
}

interface Flags {
  readonly dotAll: boolean;
}

/**
 * Writes a parsed JavaScript pattern in RE2's syntax, keeping JavaScript's meaning where the two differ:
 * `\s` and `.` become the explicit classes JavaScript means (RE2's are narrower / wider), characters are
 * written as `\x{...}`. Lookarounds, backreferences and the `m` modifier have no linear-time equivalent and
 * throw {@link UnsupportedPatternFeature}.
 */
export function toRe2(node: AnyPatternNode, flags: Flags = { dotAll: false }): string {
  switch (node.type) {
    case "alternative":
      return node.body.map((child) => toRe2(child, flags)).join("");
    case "disjunction":
      return node.body.map((child) => toRe2(child, flags)).join("|");
    case "value":
      return literal(node.codePoint);
    case "dot":
      return rangesClass(flags.dotAll ? ANY : NOT_LINE_TERMINATOR, false);
    case "characterClassEscape":
      return rangesClass(classEscapeRanges(node.value), false);
    case "unicodePropertyEscape":
      return `\\${node.negative ? "P" : "p"}{${node.value}}`;
    case "characterClass":
      return characterClass(node);
    case "characterClassRange":
      return rangesClass([[node.min.codePoint, node.max.codePoint]], false);
    case "anchor":
      return node.kind === "start" ? "^" : node.kind === "end" ? "$" : node.kind === "boundary" ? "\\b" : "\\B";
    case "quantifier": {
      const body = toRe2(node.body[0], flags);
      const count =
        node.max === undefined
          ? node.min === 0
            ? "*"
            : node.min === 1
              ? "+"
              : `{${node.min},}`
          : node.min === 0 && node.max === 1
            ? "?"
            : node.min === node.max
              ? `{${node.min}}`
              : `{${node.min},${node.max}}`;
      return `${body}${count}${node.greedy ? "" : "?"}`;
    }
    case "reference":
      throw new UnsupportedPatternFeature(
        `the backreference \`${node.raw}\``,
        "match the repeated text with its own expression, or split the rule",
      );
    case "group":
      return group(node, flags);
  }
}

function group(node: Extract<AnyPatternNode, { type: "group" }>, flags: Flags): string {
  if (node.behavior !== "normal" && node.behavior !== "ignore") {
    const negative = node.behavior.startsWith("negative");
    throw new UnsupportedPatternFeature(
      `the ${negative ? "negative " : ""}${node.behavior.toLowerCase().includes("behind") ? "lookbehind" : "lookahead"} \`${node.raw.slice(0, 40)}\``,
      negative
        ? "express the exclusion with `not: { pattern }` beside this constraint"
        : "list each required part as its own constraint in `allOf: [{ pattern }, { pattern }]`",
    );
  }
  let inner = flags;
  let prefix = node.behavior === "normal" ? (node.name ? `(?P<${node.name.value}>` : "(") : "(?:";
  const modifiers = "modifierFlags" in node ? node.modifierFlags : undefined;
  if (modifiers) {
    if ((modifiers.enabling + modifiers.disabling).includes("m"))
      throw new UnsupportedPatternFeature("the `m` modifier", "match line starts and ends with explicit alternatives such as `(?:^|\\n)`");
    const re2Flags = `${modifiers.enabling.replace("s", "")}${modifiers.disabling.replace("s", "") ? `-${modifiers.disabling.replace("s", "")}` : ""}`;
    inner = { dotAll: modifiers.enabling.includes("s") ? true : modifiers.disabling.includes("s") ? false : flags.dotAll };
    prefix = re2Flags === "" ? "(?:" : `(?${re2Flags}:`;
  }
  return `${prefix}${node.body.map((child) => toRe2(child, inner)).join("")})`;
}

function characterClass(node: Extract<AnyPatternNode, { type: "characterClass" }>): string {
  const properties = node.body.filter((part) => part.type === "unicodePropertyEscape");
  const ranges: Ranges = normalize(
    node.body.flatMap((part): Ranges => {
      switch (part.type) {
        case "value":
          return [[part.codePoint, part.codePoint]];
        case "characterClassRange":
          return [[part.min.codePoint, part.max.codePoint]];
        case "characterClassEscape":
          return classEscapeRanges(part.value);
        default:
          return [];
      }
    }),
  );
  if (properties.length === 0) return rangesClass(node.negative ? complement(ranges) : ranges, false);
  const items = [...ranges.map(rangeText), ...properties.map((part) => `\\${part.negative ? "P" : "p"}{${part.value}}`)];
  return `[${node.negative ? "^" : ""}${items.join("")}]`;
}

/** A class of code-point ranges; an empty set becomes an expression that never matches. */
function rangesClass(ranges: Ranges, negative: boolean): string {
  if (ranges.length === 0) return negative ? rangesClass(ANY, false) : "\\b\\B";
  return `[${negative ? "^" : ""}${ranges.map(rangeText).join("")}]`;
}

function rangeText([from, to]: readonly [number, number]): string {
  return from === to ? literal(from) : `${literal(from)}-${literal(to)}`;
}

function literal(codePoint: number): string {
  const isPlain =
    (codePoint >= 48 && codePoint <= 57) ||
    (codePoint >= 65 && codePoint <= 90) ||
    (codePoint >= 97 && codePoint <= 122) ||
    codePoint === 95;
  return isPlain ? String.fromCodePoint(codePoint) : `\\x{${codePoint.toString(16)}}`;
}
