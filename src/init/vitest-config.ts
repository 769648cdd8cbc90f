import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { codeOnly } from "./code-only.js";
import { writeSource } from "../exits/out.js";

const NAMES = ["vitest.config", "vite.config"].flatMap((base) => ["ts", "mts", "cts", "js", "mjs", "cjs"].map((ext) => `${base}.${ext}`));
/** The line that imports the plugin. */
export const PLUGIN_IMPORT = 'import { tooltrace } from "tooltrace/vitest";';
const IMPORT = PLUGIN_IMPORT;

/** What `init` did to the Vitest config: wrote one, added the plugin, found it there, or could not edit it. */
export type ConfigOutcome =
  | { readonly kind: "created" | "present"; readonly file: string }
  | { readonly kind: "added"; readonly file: string; readonly original?: string; readonly what?: string }
  | { readonly kind: "manual"; readonly file: string; readonly why: string };

/**
 * Adds the plugin to the project's Vitest config, touching nothing else: the import after the last import, and
 * `tooltrace()` first in `plugins: [` (or a `plugins` entry first in `defineConfig({`). With no config, writes one.
 * A config it cannot read that way is left as it is, and the outcome says why.
 */
export function addPlugin(folder: string): ConfigOutcome {
  const existing = NAMES.find((name) => existsSync(join(folder, name)));
  if (existing === undefined) {
    // TypeScript or not: Vitest reads a TypeScript config (and test files) without the compiler installed. In a
    // CommonJS package (npm init's default), `.mts` keeps the config an ES module, as Vite wants it.
    const file = isModulePackage(folder) ? "vitest.config.ts" : "vitest.config.mts";
    writeSource(
      "init files",
      join(folder, file),
      `// ${file}\nimport { defineConfig } from "vitest/config";\n${IMPORT}\n\nexport default defineConfig({ plugins: [tooltrace()] });\n`,
    );
    return { kind: "created", file };
  }
  const path = join(folder, existing);
  const text = readFileSync(path, "utf8");
  const code = codeOnly(text);
  if (/\btooltrace\s*\(/.test(code) && text.includes("tooltrace/vitest")) return { kind: "present", file: existing };
  // Found in the code only: a comment or a string that mentions `plugins: [` is not the config's plugins.
  const withPlugin = firstInPlugins(text, code) ?? pluginsInDefineConfig(text, code);
  const imports = [...code.matchAll(/^import\b[^;]*;?[^\n]*$/gm)];
  const last = imports.at(-1);
  if (withPlugin === undefined || last === undefined || /\brequire\(/.test(text)) {
    return {
      kind: "manual",
      file: existing,
      why: "its shape is not one init edits",
    };
  }
  const at = (last.index ?? 0) + last[0].length;
  // The import goes after the last import of the edited text: the plugin was added further down.
  const lastAfter = [...codeOnly(withPlugin).matchAll(/^import\b[^;]*;?[^\n]*$/gm)].at(-1);
  const cut = lastAfter === undefined ? at : (lastAfter.index ?? 0) + lastAfter[0].length;
  writeSource("init files", path, `${withPlugin.slice(0, cut)}\n${IMPORT}${withPlugin.slice(cut)}`);
  return { kind: "added", file: existing, original: text };
}

/** `text` with `tooltrace()` first in its `plugins: [...]` list, formatted as the list is; `undefined` without one. */
function firstInPlugins(text: string, code: string): string | undefined {
  const match = /plugins\s*:\s*\[/.exec(code);
  if (match === null) return undefined;
  const open = match.index + match[0].length;
  const close = closingBracket(code, open);
  if (close === undefined) return undefined;
  const inside = text.slice(open, close);
  const edit = (list: string) => `${text.slice(0, open)}${list}${text.slice(close)}`;
  if (inside.trim() === "") return edit("tooltrace()");
  if (!inside.includes("\n")) {
    // One line, `[a(), b()]`: a trailing comma goes, as a formatter takes it off a list on one line.
    const rest = inside.trim().replace(/,$/, "");
    if (code.slice(open, close).trim() === "") return edit(rest === "" ? "tooltrace()" : `${rest} tooltrace()`);
    return edit(`tooltrace(), ${rest}`);
  }
  const first = inside.search(/\S/);
  const lead = inside.slice(0, first === -1 ? inside.length : first);
  // The first entry on the bracket's line: `[a(),\n  b()]`.
  if (first !== -1 && !lead.includes("\n")) return edit(`tooltrace(), ${inside.slice(first)}`);
  const indent = /[ \t]*$/.exec(lead)?.[0] ?? "";
  if (code.slice(open, close).trim() === "") {
    // Comments only: the plugin on a line of its own after them.
    const end = inside.trimEnd().length;
    return edit(`${inside.slice(0, end)}\n${indent}tooltrace(),${inside.slice(end)}`);
  }
  return edit(`${lead}tooltrace(),\n${indent}${inside.slice(first)}`);
}

/** `text` with a `plugins` entry first in `defineConfig({...})`, on a line of its own when the object has them. */
function pluginsInDefineConfig(text: string, code: string): string | undefined {
  const match = /defineConfig\(\s*\{/.exec(code);
  return match === null ? undefined : firstInObject(text, code, match.index + match[0].length, "plugins: [tooltrace()]");
}

/**
 * `text` with `entry` first in the object literal whose `{` ends just before `at` (`code` is `text` with comments
 * and strings blanked): `{ entry }` in an empty one, on the brace's line when the object is on one line, else on
 * a line of its own indented as the next one. `undefined` when nothing follows the brace.
 */
export function firstInObject(text: string, code: string, at: number, entry: string): string | undefined {
  const next = code.slice(at).search(/\S/);
  if (next === -1) return undefined;
  const lead = text.slice(at, at + next);
  if (code[at + next] === "}" && lead.trim() === "") return `${text.slice(0, at)} ${entry} ${text.slice(at + next)}`;
  if (!lead.includes("\n")) return `${text.slice(0, at)} ${entry},${text.slice(at)}`;
  const indent = /[ \t]*$/.exec(lead)?.[0] ?? "";
  return `${text.slice(0, at)}\n${indent}${entry},${text.slice(at)}`;
}

/** Where the bracket opened just before `from` closes in `code` (comments and strings blanked), or `undefined`. */
export function closingBracket(code: string, from: number): number | undefined {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const char = code[i];
    if (char === "[" || char === "(" || char === "{") depth += 1;
    else if (char === "]" || char === ")" || char === "}") {
      if (depth === 0) return char === "]" ? i : undefined;
      depth -= 1;
    }
  }
  return undefined;
}

/** Whether the config sets its own `include`, which the plugin leaves as it is (the eval pattern is not added). */
export function setsInclude(folder: string): boolean {
  const existing = NAMES.find((name) => existsSync(join(folder, name)));
  return existing !== undefined && /\binclude\s*:/.test(codeOnly(readFileSync(join(folder, existing), "utf8")));
}

/** Whether the folder's package.json says `"type": "module"`. */
function isModulePackage(folder: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { type?: unknown }).type === "module";
  } catch {
    return false;
  }
}
