import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TooltracePluginOptions } from "./options.js";

/** The part of a Vite plugin that `tooltrace()` fills in (kept structural so Vite's types are not a dependency). */
export interface TooltraceVitePlugin {
  readonly name: string;
  config(): { test: { setupFiles: string[]; provide: { tooltrace: TooltracePluginOptions } } };
}

/**
 * The Vitest plugin: registers tooltrace's matchers and after-test checks by adding one setup file after
 * yours. Your include patterns, setup files and timeouts stay as you set them.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from "vitest/config";
 * import { tooltrace } from "tooltrace/vitest";
 * export default defineConfig({ plugins: [tooltrace({ unusedRules: "error" })] });
 * ```
 */
export function tooltrace(options: TooltracePluginOptions = {}): TooltraceVitePlugin {
  if (options.unusedRules !== undefined && !["warn", "error", "ignore"].includes(options.unusedRules)) {
    throw new TypeError(`[tooltrace] tooltrace({ unusedRules }): use "warn", "error" or "ignore", got ${JSON.stringify(options.unusedRules)}.`);
  }
  if (options.llm !== undefined && typeof options.llm !== "boolean" && (options.llm === null || typeof options.llm !== "object")) {
    throw new TypeError("[tooltrace] tooltrace({ llm }): pass true, or { baseUrls?, models?, onUnhandledRequest? }.");
  }
  const setupFiles = [...(options.llm ? [setupFilePath("llm-setup")] : []), setupFilePath("setup")];
  return {
    name: "tooltrace",
    config: () => ({ test: { setupFiles, provide: { tooltrace: { ...options } } } }),
  };
}

function setupFilePath(name: string): string {
  const built = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
}
