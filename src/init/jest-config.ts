import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeSource } from "../exits/out.js";
import { codeOnly } from "./code-only.js";
import { type JestConfigTransform, jestConfig } from "./templates/jest.js";
import { type ConfigOutcome, closingBracket, firstInObject } from "./vitest-config.js";

const CODE_NAMES = ["js", "mjs", "cjs", "ts", "mts", "cts"].map((ext) => `jest.config.${ext}`);
const NAMES = [...CODE_NAMES, "jest.config.json"];
/** What a Jest config needs for tooltrace. */
export const JEST_SETUP = 'setupFilesAfterEnv: ["tooltrace/jest"]';
const ENTRY = '"tooltrace/jest"';

/** The project's Jest config, as Jest looks for it: a `jest.config.*` file, or package.json's `jest` key. */
export function jestConfigFile(folder: string, jestKey: boolean): string | undefined {
  return NAMES.find((name) => existsSync(join(folder, name))) ?? (jestKey ? "package.json" : undefined);
}

/**
 * Gives the project's Jest config tooltrace's setup file, touching nothing else: `"tooltrace/jest"` last in its
 * `setupFilesAfterEnv`, or that key first in the config's object (a `jest.config.*` file, or package.json's `jest`
 * key). With no config, writes `jest.config.mjs` (with ts-jest's `preset`, when given). A config it cannot read
 * that way is left as it is, and the outcome says why.
 */
export function addJestSetup(folder: string, jestKey: boolean, transform?: JestConfigTransform): ConfigOutcome {
  const existing = jestConfigFile(folder, jestKey);
  if (existing === undefined) {
    writeSource("init files", join(folder, "jest.config.mjs"), `// jest.config.mjs\n${jestConfig(transform)}`);
    return { kind: "created", file: "jest.config.mjs" };
  }
  const path = join(folder, existing);
  const text = readFileSync(path, "utf8");
  if (text.includes("tooltrace/jest")) return { kind: "present", file: existing };
  const edited = existing.endsWith(".json") ? withSetupInJson(text, existing === "package.json") : withSetupInCode(text);
  if (edited === undefined) return { kind: "manual", file: existing, why: "its shape is not one init edits" };
  writeSource("init files", path, edited);
  return { kind: "added", file: existing, original: text };
}

/** The JSON config (package.json's `jest`, or the whole file) with the setup file, indented as the file is. */
function withSetupInJson(text: string, inPackageJson: boolean): string | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const config = inPackageJson ? parsed.jest : parsed;
  if (typeof config !== "object" || config === null || Array.isArray(config)) return undefined;
  const jest = config as { setupFilesAfterEnv?: unknown };
  if (jest.setupFilesAfterEnv !== undefined && !Array.isArray(jest.setupFilesAfterEnv)) return undefined;
  jest.setupFilesAfterEnv = [...((jest.setupFilesAfterEnv as unknown[] | undefined) ?? []), "tooltrace/jest"];
  const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? "  ";
  return `${JSON.stringify(parsed, null, indent)}${text.endsWith("\n") ? "\n" : ""}`;
}

/** A `jest.config.*` module with the setup file: in its `setupFilesAfterEnv: [...]`, or first in its object. */
function withSetupInCode(text: string): string | undefined {
  const code = codeOnly(text);
  const list = /\bsetupFilesAfterEnv\s*:\s*\[/.exec(code);
  if (list !== null) {
    const open = list.index + list[0].length;
    const close = closingBracket(code, open);
    if (close === undefined) return undefined;
    const inside = text.slice(open, close);
    const end = inside.trimEnd().length;
    if (inside.trim() === "") return `${text.slice(0, open)}${ENTRY}${text.slice(close)}`;
    // A trailing comma stays a trailing comma.
    const trailing = inside.slice(0, end).endsWith(",");
    // On lines of their own: one more line, indented as the last entry is.
    const separator = inside.includes("\n") ? `\n${/\n([ \t]*)\S[^\n]*$/.exec(inside.slice(0, end))?.[1] ?? "  "}` : " ";
    const entry = `${trailing ? "" : ","}${separator}${ENTRY}${trailing ? "," : ""}`;
    return `${text.slice(0, open)}${inside.slice(0, end)}${entry}${inside.slice(end)}${text.slice(close)}`;
  }
  // The config object: `export default {`, `module.exports = {`, or `const config: Config = {` exported below.
  const object = /(?:\bexport\s+default|\bmodule\.exports\s*=|\bconst\s+\w+\s*(?::\s*[\w.]+\s*)?=)\s*\{/.exec(code);
  return object === null ? undefined : firstInObject(text, code, object.index + object[0].length, JEST_SETUP);
}
