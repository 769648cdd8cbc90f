import type { RE2JS } from "re2js";
import { BoundedCache } from "../../base/bounded-cache.js";
import { lazyRequire } from "../../base/lazy-require.js";
import { isLinearSafe } from "./linear-safe.js";
import { literalPrefix } from "./literal-prefix.js";
import { parsePattern } from "./parse-pattern.js";
import { toRe2, UnsupportedPatternFeature } from "./to-re2.js";

/** What ajv needs of a compiled pattern: a search, and a `toString` unique to the pattern (ajv's cache key). */
export interface CompiledPattern {
  test(input: string): boolean;
  toString(): string;
  /** Which engine runs it: V8's `RegExp` (proved linear) or RE2 (linear by construction). */
  readonly engine: "native" | "re2";
  /** Text every match starts with (`^order-` gives `order-`): a cheap test that rules out most misses first. */
  readonly prefix: string;
}

/** A pattern refused at setup: what is wrong and what to write instead. */
export class PatternRefused extends Error {
  override readonly name = "PatternRefused";
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

const re2js = lazyRequire<{ RE2JS: typeof RE2JS }>("re2js");

/** Past this RE2 program size the engine's memory for linear matching runs out and it slows sharply. */
const MAX_PROGRAM_SIZE = 1000;
const cache = new BoundedCache<string, CompiledPattern>(2000);

/**
 * Compiles a JSON Schema `pattern` (JavaScript syntax, `u` flag) so that no input can make it backtrack
 * without end: V8's `RegExp` when the pattern's shape proves it linear, otherwise RE2's linear-time engine
 * with JavaScript's meaning of `\s` and `.` kept. Throws {@link PatternRefused} for a syntax error or a
 * feature RE2 cannot run (lookarounds, backreferences). Cached by pattern text.
 */
export function compilePattern(pattern: string): CompiledPattern {
  return cache.getOrCreate(pattern, () => compile(pattern));
}

function compile(pattern: string): CompiledPattern {
  let ast: ReturnType<typeof parsePattern>;
  try {
    ast = parsePattern(pattern);
  } catch (error) {
    throw new PatternRefused(
      `invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message.split("\n")[0]}.`,
      "patterns are JavaScript regular expressions with the `u` flag; escape backslashes in JSON (`\\\\b`).",
    );
  }
  const prefix = literalPrefix(ast);
  if (isLinearSafe(ast)) {
    try {
      const native = new RegExp(pattern, "u");
      return { test: (input) => native.test(input), toString: () => `native:${pattern}`, engine: "native", prefix };
    } catch {
      // A feature this V8 lacks: RE2 below.
    }
  }
  let re2: RE2JS;
  try {
    re2 = re2js().RE2JS.compile(toRe2(ast));
  } catch (error) {
    if (error instanceof UnsupportedPatternFeature) {
      throw new PatternRefused(
        `${JSON.stringify(pattern)} uses ${error.feature}, which cannot be matched in linear time, so one input could block the test worker.`,
        `${error.fix}.`,
      );
    }
    throw new PatternRefused(
      `${JSON.stringify(pattern)} cannot be matched in linear time: ${(error as Error).message}.`,
      "simplify the expression (RE2 syntax: no repeat count above 1000).",
    );
  }
  if (re2.programSize() > MAX_PROGRAM_SIZE) {
    throw new PatternRefused(
      `${JSON.stringify(pattern)} is too large to match in linear time (RE2 program size ${re2.programSize()}, at most ${MAX_PROGRAM_SIZE}).`,
      "use smaller repeat counts, or split the constraint into several.",
    );
  }
  const engine = re2;
  return { test: (input) => engine.test(input), toString: () => `re2:${pattern}`, engine: "re2", prefix };
}
