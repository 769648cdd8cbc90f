import type { MatcherContext } from "./matcher-context.js";

/** A custom equality tester, as Vitest's and Jest's `equals` take them. */
type Tester = (actual: unknown, expected: unknown, testers: Tester[]) => boolean | undefined;

/**
 * Whether `actual` satisfies `expected`, decided by the runner's own equality with subset semantics, as
 * `toMatchObject` does (`this.equals` with subset and iterable testers): dates compare by time, maps and
 * sets by their entries, `{ a: undefined }` needs an `a`, arrays match element by element with the same
 * length, asymmetric matchers (`expect.any(String)`) decide for themselves. tooltrace adds two extras, at
 * any depth: a RegExp is tested against a string (or the JSON of any other value), and a plain function is
 * a predicate.
 */
export function matchValue(context: MatcherContext, expected: unknown, actual: unknown): boolean {
  const testers: Tester[] = [];
  const equals = (a: unknown, b: unknown) => context.equals(a, b, testers);
  testers.push(extrasTester, iterableTester(equals), subsetTester(equals));
  return equals(actual, expected);
}

const extrasTester: Tester = (actual, expected) => {
  if (expected instanceof RegExp) {
    const text = typeof actual === "string" ? actual : safeJson(actual);
    expected.lastIndex = 0;
    return text !== undefined && expected.test(text);
  }
  if (typeof expected === "function" && !isAsymmetric(expected)) return Boolean((expected as (value: unknown) => unknown)(actual));
  return undefined;
};

/** Maps, sets and other iterables (not arrays or strings) compare by their entries, as Jest's `iterableEquality` does. */
function iterableTester(equals: (a: unknown, b: unknown) => boolean): Tester {
  return (actual, expected) => {
    if (!isIterableObject(actual) || !isIterableObject(expected)) return undefined;
    if (actual.constructor !== expected.constructor) return false;
    if (actual instanceof Map && expected instanceof Map) {
      if (actual.size !== expected.size) return false;
      return [...expected].every(([key, value]) =>
        actual.has(key) ? equals(actual.get(key), value) : [...actual].some(([k, v]) => equals(k, key) && equals(v, value)),
      );
    }
    if (actual instanceof Set && expected instanceof Set) {
      if (actual.size !== expected.size) return false;
      return [...expected].every((item) => actual.has(item) || [...actual].some((other) => equals(other, item)));
    }
    return equals([...(actual as Iterable<unknown>)], [...(expected as Iterable<unknown>)]);
  };
}

/** Every key of an expected object must be in the actual one and match, recursively (`toMatchObject`'s subset). */
function subsetTester(equals: (a: unknown, b: unknown) => boolean): Tester {
  return (actual, expected) => {
    if (!isObjectWithKeys(expected)) return undefined;
    if (actual === null || typeof actual !== "object") return false;
    return Object.keys(expected).every((key) => key in actual && equals((actual as Record<string, unknown>)[key], expected[key]));
  };
}

function isObjectWithKeys(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === "object" &&
    !isAsymmetric(value) &&
    !(value instanceof Error) &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof Set) &&
    !(value instanceof Map) &&
    !(value instanceof RegExp)
  );
}

function isIterableObject(value: unknown): value is object & Iterable<unknown> {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    !ArrayBuffer.isView(value) &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function"
  );
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
