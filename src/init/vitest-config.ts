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
  | { readonly kind: "added"; readonly file: string; readonly original?: string }
  | { readonly kind: "manual"; readonly file: string; readonly why: string };

/**
 * Adds the plugin to the project's Vitest config, touching nothing else: the import after the last import, and
 * `tooltrace()` first in `plugins: [` (or a `plugins` entry first in `defineConfig({`). With no config, writes one.
 * A config it cannot read that way is left as it is, and the outcome says what to add.
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
  const withPlugin =
    insertAt(text, code, /plugins\s*:\s*\[\s*/, (found) => (/\]$/.test(found) ? "tooltrace()" : "tooltrace(), "), ["]"]) ??
    insertAt(text, code, /defineConfig\(\s*\{/, () => " plugins: [tooltrace()],");
  const imports = [...code.matchAll(/^import\b[^;]*;?[^\n]*$/gm)];
  const last = imports.at(-1);
  if (withPlugin === undefined || last === undefined || /\brequire\(/.test(text)) {
    return {
      kind: "manual",
      file: existing,
      why: `add \`${IMPORT}\` and \`tooltrace()\` to its \`plugins\``,
    };
  }
  const at = (last.index ?? 0) + last[0].length;
  // The import goes after the last import of the edited text: the plugin was added further down.
  const lastAfter = [...codeOnly(withPlugin).matchAll(/^import\b[^;]*;?[^\n]*$/gm)].at(-1);
  const cut = lastAfter === undefined ? at : (lastAfter.index ?? 0) + lastAfter[0].length;
  writeSource("init files", path, `${withPlugin.slice(0, cut)}\n${IMPORT}${withPlugin.slice(cut)}`);
  return { kind: "added", file: existing, original: text };
}

/**
 * `text` with `insert(found)` put right after the first match of `pattern` in its code (`code`: the text with
 * comments and strings blanked), or `undefined` when the code has none.
 */
function insertAt(
  text: string,
  code: string,
  pattern: RegExp,
  insert: (found: string) => string,
  closers: readonly string[] = [],
): string | undefined {
  const match = pattern.exec(code);
  if (match === null) return undefined;
  const at = match.index + match[0].length;
  // `plugins: []`: the plugin goes in alone, with no comma before the bracket.
  const empty = closers.some((closer) => code.startsWith(closer, at));
  return `${text.slice(0, at)}${insert(empty ? `${match[0]}]` : match[0])}${text.slice(at)}`;
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
