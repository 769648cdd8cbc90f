import { BoundedCache } from "../base/bounded-cache.js";
import { excerpt } from "../exits/excerpt.js";
import { type CompiledPattern, compilePattern, PatternRefused } from "../stubs/pattern/compile-pattern.js";

/** The longest URL pattern accepted: past it, a pattern says more than any URL should. */
export const MAX_URL_PATTERN_LENGTH = 2048;
const FLAGS = /^[giuy]*$/;

/**
 * Whether `url` fits an HTTP mock's URL, compared without the query string (and fragment): a string is a
 * full URL or an MSW-style pattern (`:param` is one path segment, `*` anything), and one that starts with `/`
 * matches the path on any host; a RegExp is tested against the origin and path. A trailing slash does not
 * matter. `toHaveRequested` shows a RegExp the whole URL, query included. Both run in linear time (see {@link compileUrlPattern}), so no URL can block the worker.
 */
export function urlMatches(pattern: string | RegExp, url: string, regExpSees: "path" | "whole URL" = "path"): boolean {
  const parsed = new URL(url);
  if (pattern instanceof RegExp) return compileUrlPattern(pattern).test(regExpSees === "path" ? `${parsed.origin}${parsed.pathname}` : url);
  const target = pattern.startsWith("/") ? parsed.pathname : `${parsed.origin}${parsed.pathname}`;
  return compileUrlPattern(pattern).test(target);
}

const cache = new BoundedCache<string, CompiledPattern>(1000);

/**
 * Compiles a URL pattern (a string or a RegExp) with the linear-time engine of stub patterns: V8's `RegExp`
 * when the shape proves it linear, RE2 otherwise. Throws {@link PatternRefused} for what cannot run in
 * linear time (backreferences, lookarounds) or is too long; called at setup, so a mock is refused there.
 */
export function compileUrlPattern(pattern: string | RegExp): CompiledPattern {
  const key = pattern instanceof RegExp ? `re:${pattern.flags}:${pattern.source}` : `url:${pattern}`;
  return cache.getOrCreate(key, () => {
    if (pattern instanceof RegExp) {
      if (!FLAGS.test(pattern.flags))
        throw new PatternRefused(
          `the RegExp ${excerpt(String(pattern), 80)} has flags \`${pattern.flags}\`, which a URL (one line, no query) does not need.`,
          "drop the `m`, `s` and `d` flags.",
        );
      return compilePattern(checkedLength(pattern.source), pattern.flags.includes("i"));
    }
    const withoutQuery = pattern.split("?")[0] ?? pattern;
    const source = checkedLength(withoutQuery)
      .replace(/\/+$/, "")
      .split(/(:[A-Za-z_][A-Za-z0-9_]*|\*)/)
      .map((part) => (part === "*" ? ".*" : part.startsWith(":") ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")))
      .join("");
    return compilePattern(`^${source}/?$`);
  });
}

function checkedLength(source: string): string {
  if (source.length > MAX_URL_PATTERN_LENGTH)
    throw new PatternRefused(
      `a URL pattern of ${source.length} characters (${JSON.stringify(excerpt(source, 40))}); URL patterns are at most ${MAX_URL_PATTERN_LENGTH}.`,
      "match the path's shape with `:param` and `*`, and the rest with `match`.",
    );
  return source;
}
