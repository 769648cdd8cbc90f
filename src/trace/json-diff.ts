import { compactJson } from "../exits/excerpt.js";
import { pointerToken } from "../base/pointer.js";

/** One place where two JSON values differ, named by its JSON pointer (RFC 6901). */
export interface JsonDifference {
  readonly pointer: string;
  readonly kind: "changed" | "added" | "removed";
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/**
 * Where `actual` differs from `expected`, deepest first-found, at most `limit` places: a key or element only in
 * `actual` is `added`, only in `expected` `removed`, and a different leaf (or a different type) `changed`.
 */
export function jsonDifferences(expected: unknown, actual: unknown, limit = 20): JsonDifference[] {
  const found: JsonDifference[] = [];
  walk(expected, actual, "", found, limit);
  return found;
}

function walk(expected: unknown, actual: unknown, pointer: string, found: JsonDifference[], limit: number): void {
  if (found.length >= limit) return;
  if (Object.is(expected, actual)) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    for (let i = 0; i < length && found.length < limit; i++) {
      const at = `${pointer}/${i}`;
      if (i >= actual.length) found.push({ pointer: at, kind: "removed", expected: expected[i] });
      else if (i >= expected.length) found.push({ pointer: at, kind: "added", actual: actual[i] });
      else walk(expected[i], actual[i], at, found, limit);
    }
    return;
  }
  if (isRecord(expected) && isRecord(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (found.length >= limit) return;
      const at = `${pointer}/${pointerToken(key)}`;
      if (!(key in actual)) found.push({ pointer: at, kind: "removed", expected: expected[key] });
      else if (!(key in expected)) found.push({ pointer: at, kind: "added", actual: actual[key] });
      else walk(expected[key], actual[key], at, found, limit);
    }
    return;
  }
  found.push({ pointer: pointer === "" ? "/" : pointer, kind: "changed", expected, actual });
}

/** `/to: "Paris" → "Rome"`, `/seats: added 2`, `/note: removed "x"`. */
export function describeDifference(difference: JsonDifference, width = 60): string {
  switch (difference.kind) {
    case "changed":
      return `${difference.pointer}: ${show(difference.expected, width)} → ${show(difference.actual, width)}`;
    case "added":
      return `${difference.pointer}: added ${show(difference.actual, width)}`;
    case "removed":
      return `${difference.pointer}: removed ${show(difference.expected, width)}`;
  }
}

/** A plain object: a RegExp, an asymmetric matcher or a Date is a leaf, compared and printed whole. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A value as a difference shows it: a RegExp as itself, an asymmetric matcher by its own description. */
function show(value: unknown, width: number): string {
  if (value instanceof RegExp) return String(value);
  if (typeof value === "function") return `<predicate ${(value as { name?: string }).name || "anonymous"}>`;
  if (value !== null && typeof value === "object" && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === "function") {
    const matcher = value as { toAsymmetricMatcher?: () => string };
    return typeof matcher.toAsymmetricMatcher === "function" ? matcher.toAsymmetricMatcher() : String(value);
  }
  return compactJson(value, width);
}
