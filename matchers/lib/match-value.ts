import { usageError } from "../../src/exits/errors.js";
import type { MatcherContext } from "./matcher-context.js";

/** A custom equality tester, as Vitest's and Jest's `equals` take them. */
export type Tester = (actual: unknown, expected: unknown, testers: Tester[]) => boolean | undefined;

/**
 * Whether `actual` satisfies `expected`, decided by the runner's own equality with `toMatchObject`'s subset
 * semantics: `this.equals` with the testers registered by `expect.addEqualityTesters` and the runner's
 * `iterableEquality` and `subsetEquality`. So dates compare by time, maps and sets by their entries,
 * `{ a: undefined }` needs an `a`, arrays match element by element with the same length, and asymmetric
 * matchers (`expect.any(String)`) decide for themselves. tooltrace adds three extras, at any depth: a RegExp is
 * tested against a string (or the JSON of any other value), a plain function is a predicate, and a plain
 * object matches objects only (`{}` does not match a string).
 */
export function matchValue(context: MatcherContext, expected: unknown, actual: unknown): boolean {
  return context.equals(actual, expected, testersOf(context));
}

/** The extras, the user's testers, then the runner's own iterable and subset equality. */
export function testersOf(context: MatcherContext): Tester[] {
  const { iterableEquality, subsetEquality } = context.utils;
  if (iterableEquality === undefined || subsetEquality === undefined) {
    throw usageError(
      "tooltrace's matchers need an `expect` whose matcher context has `utils.iterableEquality` and `utils.subsetEquality` (Vitest's and Jest's do).",
    );
  }
  return [extrasTester, ...((context.customTesters ?? []) as Tester[]), iterableEquality as Tester, subsetEquality as Tester];
}

const extrasTester: Tester = (actual, expected) => {
  if (expected instanceof RegExp) {
    const text = typeof actual === "string" ? actual : safeJson(actual);
    expected.lastIndex = 0;
    return text !== undefined && expected.test(text);
  }
  if (typeof expected === "function" && !isAsymmetric(expected)) return Boolean((expected as (value: unknown) => unknown)(actual));
  // A plain object matches objects only, as in eve's contract (the runner's subset equality lets `{}` match a string).
  if (isPlainObject(expected) && !isAsymmetric(expected) && (actual === null || typeof actual !== "object" || Array.isArray(actual)))
    return false;
  return undefined;
};

function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

interface Asymmetric {
  asymmetricMatch(actual: unknown): boolean;
}

function isAsymmetric(value: unknown): value is Asymmetric {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as Asymmetric).asymmetricMatch === "function"
  );
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A readable form of an expectation that may hold RegExps, functions and asymmetric matchers. */
export function describeExpected(expected: unknown): string {
  if (isAsymmetric(expected))
    return typeof (expected as { toString?: () => string }).toString === "function" ? String(expected) : "<asymmetric matcher>";
  if (expected instanceof RegExp) return String(expected);
  if (typeof expected === "function") return `<predicate ${(expected as { name?: string }).name || "anonymous"}>`;
  if (Array.isArray(expected)) return `[${expected.map(describeExpected).join(", ")}]`;
  if (expected instanceof Date) return `Date(${expected.toISOString()})`;
  if (expected !== null && typeof expected === "object") {
    return `{ ${Object.entries(expected)
      .map(([key, value]) => `${key}: ${describeExpected(value)}`)
      .join(", ")} }`;
  }
  return JSON.stringify(expected) ?? String(expected);
}
