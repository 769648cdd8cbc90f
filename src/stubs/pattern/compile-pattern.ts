import type { RE2JS } from "re2js";
import { BoundedCache } from "../../base/bounded-cache.js";
import { excerpt } from "../../exits/excerpt.js";
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
export function compilePattern(pattern: string, ignoreCase = false): CompiledPattern {
  return cache.getOrCreate(ignoreCase ? `i:${pattern}` : pattern, () => compile(pattern, ignoreCase));
}

function compile(pattern: string, ignoreCase: boolean): CompiledPattern {
  let ast: ReturnType<typeof parsePattern>;
  try {
    ast = parsePattern(pattern);
  } catch (error) {
    throw new PatternRefused(
      `invalid regular expression ${JSON.stringify(excerpt(pattern, 80))}: ${(error as Error).message.split("\n")[0]}.`,
      "patterns are JavaScript regular expressions with the `u` flag; escape backslashes in JSON (`\\\\b`).",
    );
  }
  const prefix = literalPrefix(ast);
  if (isLinearSafe(ast)) {
    try {
      const native = new RegExp(pattern, ignoreCase ? "ui" : "u");
      const name = `native:${ignoreCase ? "i:" : ""}${pattern}`;
      return { test: (input) => native.test(input), toString: () => name, engine: "native", prefix: ignoreCase ? "" : prefix };
    } catch {
      // A feature this V8 lacks: RE2 below.
    }
  }
  let re2: RE2JS;
  try {
    const { RE2JS: engine } = re2js();
    re2 = engine.compile(toRe2(ast), ignoreCase ? engine.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (error instanceof UnsupportedPatternFeature) {
      throw new PatternRefused(
        `${JSON.stringify(excerpt(pattern, 80))} uses ${error.feature}, which cannot be matched in linear time, so one input could block the test worker.`,
        `${error.fix}.`,
      );
    }
    throw new PatternRefused(
      `${JSON.stringify(excerpt(pattern, 80))} cannot be matched in linear time: ${(error as Error).message}.`,
      "simplify the expression (RE2 syntax: no repeat count above 1000).",
    );
  }
  if (re2.programSize() > MAX_PROGRAM_SIZE) {
    throw new PatternRefused(
      `${JSON.stringify(excerpt(pattern, 80))} is too large to match in linear time (RE2 program size ${re2.programSize()}, at most ${MAX_PROGRAM_SIZE}).`,
      "use smaller repeat counts, or split the constraint into several.",
    );
  }
  const engine = re2;
  const name = `re2:${ignoreCase ? "i:" : ""}${pattern}`;
  return { test: (input) => engine.test(input), toString: () => name, engine: "re2", prefix: ignoreCase ? "" : prefix };
}
