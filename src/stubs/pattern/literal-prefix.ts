import type { PatternNode } from "./parse-pattern.js";

/**
 * The literal text a match must start with: after a leading `^`, the run of plain characters up to the first
 * class, quantifier, group or assertion. `""` when there is none (no `^`, or alternatives at the top).
 */
export function literalPrefix(ast: PatternNode): string {
  if (ast.type !== "alternative") return "";
  const [first, ...rest] = ast.body;
  if (first?.type !== "anchor" || first.kind !== "start") return "";
  let prefix = "";
  for (const node of rest) {
    if (node.type !== "value") break;
    prefix += String.fromCodePoint(node.codePoint);
  }
  return prefix;
}
