import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeSource } from "../exits/out.js";

const NAMES = ["vitest.config", "vite.config"].flatMap((base) => ["ts", "mts", "cts", "js", "mjs", "cjs"].map((ext) => `${base}.${ext}`));
const IMPORT = 'import { tooltrace } from "tooltrace/vitest";';

/** What `init` did to the Vitest config: wrote one, added the plugin, found it there, or could not edit it. */
export type ConfigOutcome =
  | { readonly kind: "created" | "added" | "present"; readonly file: string }
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
  if (text.includes("tooltrace/vitest")) return { kind: "present", file: existing };
  const withPlugin = /plugins\s*:\s*\[/.test(text)
    ? text.replace(/plugins\s*:\s*\[/, (found) => `${found}tooltrace(), `)
    : /defineConfig\(\s*\{/.test(text)
      ? text.replace(/defineConfig\(\s*\{/, (found) => `${found} plugins: [tooltrace()],`)
      : undefined;
  const imports = [...text.matchAll(/^import\b[^;]*;?[^\n]*$/gm)];
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
  const lastAfter = [...withPlugin.matchAll(/^import\b[^;]*;?[^\n]*$/gm)].at(-1);
  const cut = lastAfter === undefined ? at : (lastAfter.index ?? 0) + lastAfter[0].length;
  writeSource("init files", path, `${withPlugin.slice(0, cut)}\n${IMPORT}${withPlugin.slice(cut)}`);
  return { kind: "added", file: existing };
}

/** Whether the config sets its own `include`, which the plugin leaves as it is (the eval pattern is not added). */
export function setsInclude(folder: string): boolean {
  const existing = NAMES.find((name) => existsSync(join(folder, name)));
  return existing !== undefined && /\binclude\s*:/.test(readFileSync(join(folder, existing), "utf8"));
}

/** Whether the folder's package.json says `"type": "module"`. */
function isModulePackage(folder: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { type?: unknown }).type === "module";
  } catch {
    return false;
  }
}
