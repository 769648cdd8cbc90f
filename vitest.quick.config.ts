import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:quick`: the tests that start no browser, no CLI agent and no child project (a Vitest run, an
 * install, a packed tarball): a loop of seconds while you work. `npm test` runs everything.
 */
const SLOW = /chromium|packageFile\("vitest"|vitest\.mjs|projectInstalled|runWithReport|"npm"|claudeCode\(|codex\(|opencode\(/;
const slow = (readdirSync("test", { recursive: true }) as string[])
  .map((file) => join("test", file).split("\\").join("/"))
  .filter((file) => file.endsWith(".test.ts") && !file.startsWith("test/compat/") && !file.startsWith("test/deps/"))
  .filter((file) => file.startsWith("test/cli/") || SLOW.test(readFileSync(file, "utf8")));

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...slow] } }));
