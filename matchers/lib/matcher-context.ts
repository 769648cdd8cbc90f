/** The part of Vitest's and Jest's matcher `this` that tooltrace's matchers use. */
export interface MatcherContext {
  readonly isNot?: boolean;
  readonly promise?: string;
  /** The runner's deep equality, with custom testers (as `toMatchObject` uses it). */
  equals(actual: unknown, expected: unknown, customTesters?: readonly unknown[], strictCheck?: boolean): boolean;
  /** The testers the user registered with `expect.addEqualityTesters`. */
  readonly customTesters?: readonly unknown[];
  readonly utils: {
    matcherHint(name: string, received?: string, expected?: string, options?: Record<string, unknown>): string;
    printExpected(value: unknown): string;
    printReceived(value: unknown): string;
    /** The runner's own testers for iterables and `toMatchObject`'s subsets. */
    readonly iterableEquality?: unknown;
    readonly subsetEquality?: unknown;
    /** The runner's diff of two values, when it has one. */
    diff?(expected: unknown, actual: unknown, options?: Record<string, unknown>): string | null | undefined;
  };
}

/** What a matcher returns. `actual`/`expected` give Vitest's diff. */
export interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
  readonly actual?: unknown;
  readonly expected?: unknown;
}

/** The hint line shared by every matcher: `expect(turn).toHaveCalledTool(expected)`. */
export function hint(context: MatcherContext, name: string, expected = "expected"): string {
  return context.utils.matcherHint(`.${name}`, "received", expected, { isNot: context.isNot === true, promise: context.promise ?? "" });
}
