import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * The entries whose imports in a Vitest test file load tooltrace's CommonJS build, through the ES module
 * `dist/vitest-bridge/<entry>.js` the build writes (scripts/build.mjs keeps the same list): the setup file
 * has already loaded that build's core, so a test file compiles one copy of tooltrace instead of two, and
 * Vitest's worker loads CommonJS in about half the time of an ES module graph. One copy also means one
 * `StubConfigError` class, the setup file's and the test's. Not `tooltrace/ai-sdk`, `/msw` or `/agents-sdk`:
 * their CommonJS builds `require` a package (`ai`, `msw`, `@openai/agents`) the test imports as an ES module.
 */
const BRIDGED: Readonly<Record<string, string>> = {
  tooltrace: "index",
  "tooltrace/matchers": "matchers",
  "tooltrace/wire": "wire",
  "tooltrace/cli": "cli",
  "tooltrace/server": "server",
};

/** The bridge file of each bridged import, in the installed package's `dist/` (none where it has none). */
export function cjsBridges(packageRoot: string): ReadonlyMap<string, string> {
  const bridges = new Map<string, string>();
  for (const [specifier, entry] of Object.entries(BRIDGED)) {
    const file = join(packageRoot, "dist", "vitest-bridge", `${entry}.js`);
    if (existsSync(file)) bridges.set(specifier, file);
  }
  return bridges;
}
