import { BoundedCache } from "../base/bounded-cache.js";

/**
 * Whether `url` fits an HTTP mock's URL: a RegExp is tested against the whole URL; a string is a full URL or
 * an MSW-style pattern (`:param` is one path segment, `*` anything), compared without the query string; a
 * pattern that starts with `/` matches the path on any host. A trailing slash does not matter.
 */
export function urlMatches(pattern: string | RegExp, url: string): boolean {
  if (pattern instanceof RegExp) {
    pattern.lastIndex = 0;
    return pattern.test(url);
  }
  const parsed = new URL(url);
  const target = pattern.startsWith("/") ? parsed.pathname : `${parsed.origin}${parsed.pathname}`;
  return compiled(pattern).test(target);
}

const cache = new BoundedCache<string, RegExp>(1000);

function compiled(pattern: string): RegExp {
  return cache.getOrCreate(pattern, () => {
    const withoutQuery = pattern.split("?")[0] ?? pattern;
    const source = withoutQuery
      .replace(/\/+$/, "")
      .split(/(:[A-Za-z_][A-Za-z0-9_]*|\*)/)
      .map((part) => (part === "*" ? ".*" : part.startsWith(":") ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    return new RegExp(`^${source}/?$`);
  });
}
