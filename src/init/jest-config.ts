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
const SETUP_ENTRY = '"tooltrace/jest"';
const REPORTER_ENTRY = '"tooltrace/jest-reporter"';
/** A `reporters` list for a config that names none: Jest's own and tooltrace's. */
const REPORTERS = 'reporters: ["default", "tooltrace/jest-reporter"]';

/** The project's Jest config, as Jest looks for it: a `jest.config.*` file, or package.json's `jest` key. */
export function jestConfigFile(folder: string, jestKey: boolean): string | undefined {
  return NAMES.find((name) => existsSync(join(folder, name))) ?? (jestKey ? "package.json" : undefined);
}

/**
 * Gives the project's Jest config tooltrace's setup file and reporter, touching nothing else: `"tooltrace/jest"`
 * last in its `setupFilesAfterEnv` (or that key first in the config's object), `"tooltrace/jest-reporter"` last in
 * its `reporters` (or `reporters: ["default", ...]` first), in a `jest.config.*` file or package.json's `jest` key.
 * With no config, writes `jest.config.mjs` (with ts-jest's `preset`, when given). A config it cannot read that way
 * is left as it is, and the outcome says why; a `reporters` it cannot read keeps the setup alone.
 */
export function addJestSetup(folder: string, jestKey: boolean, transform?: JestConfigTransform): ConfigOutcome {
  const existing = jestConfigFile(folder, jestKey);
  if (existing === undefined) {
    writeSource("init files", join(folder, "jest.config.mjs"), `// jest.config.mjs\n${jestConfig(transform)}`);
    return { kind: "created", file: "jest.config.mjs" };
  }
  const path = join(folder, existing);
  const text = readFileSync(path, "utf8");
  if (/["']tooltrace\/jest["']/.test(text)) return { kind: "present", file: existing };
  const json = existing.endsWith(".json");
  const inPackage = existing === "package.json";
  // The reporter first, so that the setup's key, when it is added first in the object, comes before it.
  const reported = text.includes("tooltrace/jest-reporter")
    ? undefined
    : json
      ? withSetupInJson(text, inPackage, "reporters")
      : withEntryInCode(text, "reporters", REPORTER_ENTRY, REPORTERS);
  const setup = (from: string) =>
    json ? withSetupInJson(from, inPackage) : withEntryInCode(from, "setupFilesAfterEnv", SETUP_ENTRY, JEST_SETUP);
  const edited = (reported === undefined ? undefined : setup(reported)) ?? setup(text);
  if (edited === undefined) return { kind: "manual", file: existing, why: "its shape is not one init edits" };
  writeSource("init files", path, edited);
  const what =
    edited.includes("tooltrace/jest-reporter") && !text.includes("tooltrace/jest-reporter")
      ? "tooltrace's setup file and reporter"
      : "tooltrace's setup file";
  return { kind: "added", file: existing, original: text, what };
}

/** The JSON config (package.json's `jest`, or the whole file) with the setup file (or reporter), indented as the file is. */
function withSetupInJson(
  text: string,
  inPackageJson: boolean,
  key: "setupFilesAfterEnv" | "reporters" = "setupFilesAfterEnv",
): string | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const config = inPackageJson ? parsed.jest : parsed;
  if (typeof config !== "object" || config === null || Array.isArray(config)) return undefined;
  const jest = config as Record<string, unknown>;
  const list = jest[key];
  if (list !== undefined && !Array.isArray(list)) return undefined;
  const entries = (list as unknown[] | undefined) ?? (key === "reporters" ? ["default"] : []);
  jest[key] = [...entries, key === "reporters" ? "tooltrace/jest-reporter" : "tooltrace/jest"];
  const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? "  ";
  return `${JSON.stringify(parsed, null, indent)}${text.endsWith("\n") ? "\n" : ""}`;
}

/** A `jest.config.*` module with `entry` last in its `key: [...]`, or `whenAbsent` first in its object. */
function withEntryInCode(text: string, key: string, entry: string, whenAbsent: string): string | undefined {
  const code = codeOnly(text);
  const list = new RegExp(`\\b${key}\\s*:\\s*\\[`).exec(code);
  if (list !== null) {
    const open = list.index + list[0].length;
    const close = closingBracket(code, open);
    if (close === undefined) return undefined;
    const inside = text.slice(open, close);
    const end = inside.trimEnd().length;
    if (inside.trim() === "") return `${text.slice(0, open)}${entry}${text.slice(close)}`;
    // A trailing comma stays a trailing comma.
    const trailing = inside.slice(0, end).endsWith(",");
    // On lines of their own: one more line, indented as the last entry is.
    const separator = inside.includes("\n") ? `\n${/\n([ \t]*)\S[^\n]*$/.exec(inside.slice(0, end))?.[1] ?? "  "}` : " ";
    const added = `${trailing ? "" : ","}${separator}${entry}${trailing ? "," : ""}`;
    return `${text.slice(0, open)}${inside.slice(0, end)}${added}${inside.slice(end)}${text.slice(close)}`;
  }
  // The config object: `export default {`, `module.exports = {`, or `const config: Config = {` exported below.
  const object = /(?:\bexport\s+default|\bmodule\.exports\s*=|\bconst\s+\w+\s*(?::\s*[\w.]+\s*)?=)\s*\{/.exec(code);
  // A key the config already has in another shape (a variable, a function call) is left alone.
  if (new RegExp(`\\b${key}\\s*:`).test(code)) return undefined;
  return object === null ? undefined : firstInObject(text, code, object.index + object[0].length, whenAbsent);
}
