/**
 * Whether `actual` satisfies `expected`, the way `toMatchObject` reads it, plus tooltrace's extras:
 * - an asymmetric matcher (`expect.any(String)`, `expect.stringContaining(...)`) decides for itself;
 * - a RegExp is tested against a string, or against the JSON of any other value;
 * - a function is a predicate;
 * - a plain object matches when every listed key matches (extra keys allowed), recursively;
 * - an array matches element by element with the same length;
 * - anything else is compared with `Object.is`.
 */
export function matchValue(expected: unknown, actual: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual);
  if (expected instanceof RegExp) {
    const text = typeof actual === "string" ? actual : safeJson(actual);
    expected.lastIndex = 0;
    return text !== undefined && expected.test(text);
  }
  if (typeof expected === "function") return Boolean((expected as (value: unknown) => unknown)(actual));
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => matchValue(item, actual[i]));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return false;
    return Object.keys(expected).every((key) => {
      const want = (expected as Record<string, unknown>)[key];
      if (!(key in actual) && want !== undefined) return false;
      return matchValue(want, (actual as Record<string, unknown>)[key]);
    });
  }
  return Object.is(expected, actual);
}

interface Asymmetric {
  asymmetricMatch(actual: unknown): boolean;
}

function isAsymmetric(value: unknown): value is Asymmetric {
  return value !== null && typeof value === "object" && typeof (value as Asymmetric).asymmetricMatch === "function";
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
  if (isAsymmetric(expected)) return typeof (expected as { toString?: () => string }).toString === "function" ? String(expected) : "<asymmetric matcher>";
  if (expected instanceof RegExp) return String(expected);
  if (typeof expected === "function") return `<predicate ${(expected as { name?: string }).name || "anonymous"}>`;
  if (Array.isArray(expected)) return `[${expected.map(describeExpected).join(", ")}]`;
  if (expected !== null && typeof expected === "object") {
    return `{ ${Object.entries(expected)
      .map(([key, value]) => `${key}: ${describeExpected(value)}`)
      .join(", ")} }`;
  }
  return JSON.stringify(expected) ?? String(expected);
}
