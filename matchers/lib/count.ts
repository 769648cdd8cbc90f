/** A call count expectation: a number is exact, a function is a predicate. */
export type CountExpectation = number | ((count: number) => boolean);
import { usageError } from "../../src/exits/errors.js";

/** Checks `count` and throws a TypeError naming the matcher when it is neither a number nor a function. */
export function checkCount(matcher: string, count: unknown): CountExpectation | undefined {
  if (count === undefined) return undefined;
  if ((typeof count === "number" && Number.isInteger(count) && count >= 0) || typeof count === "function") return count as CountExpectation;
  throw usageError(`${matcher}: \`count\` must be a non-negative integer or a predicate (n) => boolean, got ${String(count)}.`);
}

/** Whether `actual` satisfies the expectation; without one, at least one. */
export function countMatches(expected: CountExpectation | undefined, actual: number): boolean {
  if (expected === undefined) return actual >= 1;
  return typeof expected === "number" ? actual === expected : expected(actual);
}

/** `1 time`, `3 times`, `a count accepted by <predicate>`, `at least once`. */
export function describeCount(expected: CountExpectation | undefined): string {
  if (expected === undefined) return "at least once";
  if (typeof expected === "function") return `a number of times accepted by ${expected.name || "the predicate"}`;
  return expected === 1 ? "exactly once" : `exactly ${expected} times`;
}
