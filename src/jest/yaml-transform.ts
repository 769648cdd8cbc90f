/**
 * Jest's transform for YAML evals in evalview's schema: each `*.eval.yaml` file runs as a Jest test file, one test
 * per case, with the same cases, variants and report as under the Vitest plugin. In the Jest config:
 *
 * ```js
 * testMatch: ["**\/*.test.mjs", "**\/*.eval.yaml"],
 * moduleFileExtensions: ["js", "mjs", "cjs", "json", "yaml"],
 * transform: { "\\.eval\\.ya?ml$": ["tooltrace/jest-yaml", { agent: "./evals/weather-agent.mjs" }] },
 * ```
 *
 * Its options are the Vitest plugin's `evals` ({@link YamlEvalsOptions}); paths are from Jest's `rootDir`.
 *
 * @module tooltrace/jest-yaml
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { packageRoot, packageVersion, runsFromBuild } from "../base/package-root.js";
import { type YamlEvalsOptions, yamlEvalModule } from "../evals/yaml-module.js";

export type { YamlEvalsOptions } from "../evals/yaml-module.js";

/** What Jest hands a transform (the part of it this one reads). */
export interface JestTransformOptions {
  readonly config: { readonly rootDir: string };
  readonly transformerConfig?: YamlEvalsOptions;
  readonly supportsDynamicImport?: boolean;
  readonly supportsStaticESM?: boolean;
}

function runtime(esm: boolean): string {
  if (!runsFromBuild()) return join(packageRoot(), "src", "jest", "yaml-evals.ts");
  return join(packageRoot(), "dist", esm ? "jest-yaml-evals.js" : "jest-yaml-evals.cjs");
}

function code(path: string, options: JestTransformOptions): string {
  const format = options.supportsStaticESM ? "esm" : options.supportsDynamicImport ? "cjs-import" : "cjs-require";
  return yamlEvalModule(path, options.config.rootDir, runtime(format === "esm"), options.transformerConfig ?? {}, format);
}

/** The transform: Jest calls `process` for each YAML eval file, and caches its code by `getCacheKey`. */
const transformer = {
  process(_source: string, path: string, options: JestTransformOptions): { code: string } {
    return { code: code(path, options) };
  },
  getCacheKey(source: string, path: string, options: JestTransformOptions): string {
    const { rootDir } = options.config;
    const mode = [options.supportsStaticESM, options.supportsDynamicImport];
    return createHash("sha256")
      .update(JSON.stringify([packageVersion(), source, path, rootDir, options.transformerConfig ?? {}, mode]))
      .digest("hex");
  },
};

export default transformer;
