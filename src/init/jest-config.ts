import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeSource } from "../exits/out.js";
import { JEST_CONFIG } from "./templates/jest.js";
import type { ConfigOutcome } from "./vitest-config.js";

const NAMES = ["js", "mjs", "cjs", "ts", "mts", "cts", "json"].map((ext) => `jest.config.${ext}`);
/** What a Jest config needs for tooltrace. */
export const JEST_SETUP = 'setupFilesAfterEnv: ["tooltrace/jest"]';

/**
 * Gives the project's Jest config tooltrace's setup file: writes `jest.config.mjs` when the project has no Jest
 * config (no file, no `jest` key in package.json); a config without it is left as it is, the outcome says so.
 */
export function addJestSetup(folder: string, jestKey: boolean): ConfigOutcome {
  const existing = NAMES.find((name) => existsSync(join(folder, name))) ?? (jestKey ? "package.json" : undefined);
  if (existing === undefined) {
    writeSource("init files", join(folder, "jest.config.mjs"), `// jest.config.mjs\n${JEST_CONFIG}`);
    return { kind: "created", file: "jest.config.mjs" };
  }
  if (readFileSync(join(folder, existing), "utf8").includes("tooltrace/jest")) return { kind: "present", file: existing };
  return { kind: "manual", file: existing, why: "init does not edit a Jest config" };
}
