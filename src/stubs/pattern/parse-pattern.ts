import type { AstNode, RootNode, parse } from "regjsparser";
import { lazyRequire } from "../../base/lazy-require.js";

const regjsparser = lazyRequire<{ parse: typeof parse }>("regjsparser");

/** The regular-expression features a `pattern` may use: ES2025 with the `u` flag, modifiers included (`(?i:milk)`). */
export const FEATURES = { lookbehind: true, namedGroups: true, unicodePropertyEscape: true, modifiers: true } as const;

export type PatternNode = RootNode<typeof FEATURES>;
export type AnyPatternNode = AstNode<typeof FEATURES>;

/** Parses a JSON Schema `pattern` as a JavaScript regular expression with the `u` flag; throws a SyntaxError. */
export function parsePattern(pattern: string): PatternNode {
  return regjsparser().parse(pattern, "u", FEATURES);
}
