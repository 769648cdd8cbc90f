import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { splitAgentSpec } from "./yaml-agent.js";
import { readYamlEvalFile } from "./yaml-file.js";

/** YAML eval files, found beside test files: `flights.eval.yaml`. */
export const YAML_EVAL_PATTERN = "**/*.eval.{yaml,yml}";

/**
 * Where the agent modules of YAML evals are, and the variants to run: the Vitest plugin's `evals` option, and the
 * options of the Jest transform (`["tooltrace/jest-yaml", { agent: "./evals/agent.mjs" }]`).
 */
export interface YamlEvalsOptions {
  /** The agent module of every case that names none (a path from the project root; `#name` names an export). */
  readonly agent?: string;
  /** Agent modules by the case's `adapter` (evalview's `anthropic`, `openai`, ...), from the project root. */
  readonly adapters?: { readonly [adapter: string]: string };
  /** Variants per case (below `TOOLTRACE_VARIANTS` and a case's `mocks.variants`). Default 1. */
  readonly variants?: number;
  /** The first variant's seed (below `TOOLTRACE_SEED` and a case's `mocks.seed`). Default 1. */
  readonly seed?: number;
}

/**
 * How the generated module loads its runtime and each case's agent module: Vitest's ES module (`import`), or
 * Jest's CommonJS, with `import()` for agents in Jest's ESM mode and `require` (which Jest transforms) otherwise.
 */
export type YamlModuleFormat = "esm" | "cjs-import" | "cjs-require";

/**
 * The module the runner runs for a YAML eval file: it hands the file's text to `defineYamlEvals` (which parses and
 * validates it while the runner collects the file) with each case's agent module loaded on demand, so the
 * runner transforms the agent module as any test import.
 */
export function yamlEvalModule(
  id: string,
  root: string,
  runtime: string,
  options: YamlEvalsOptions,
  format: YamlModuleFormat = "esm",
): string {
  const source = readFileSync(id, "utf8");
  const agents: string[] = [];
  for (const entry of casesOf(source, id)) {
    const spec =
      typeof entry.agent === "string"
        ? { spec: entry.agent, from: dirname(id) }
        : typeof entry.adapter === "string" && options.adapters?.[entry.adapter]
          ? { spec: options.adapters[entry.adapter] as string, from: root }
          : options.agent
            ? { spec: options.agent, from: root }
            : undefined;
    if (typeof entry.name !== "string" || spec === undefined) continue;
    const path = splitAgentSpec(spec.spec).path;
    const file = isAbsolute(path) ? path : resolve(spec.from, path);
    // `module.exports = defineEvalAgent(...)` is the module's default export, as `import()` of it would say.
    const required = `(m => typeof m === "function" ? { default: m } : m)(require(${JSON.stringify(file)}))`;
    const load = format === "cjs-require" ? `async () => ${required}` : `() => import(${JSON.stringify(file)})`;
    agents.push(`${JSON.stringify(entry.name)}: { spec: ${JSON.stringify(spec.spec)}, load: ${load} }`);
  }
  const defaults = {
    ...(options.variants !== undefined ? { variants: options.variants } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  };
  return [
    format === "esm"
      ? `import { defineYamlEvals } from ${JSON.stringify(runtime)};`
      : `const { defineYamlEvals } = require(${JSON.stringify(runtime)});`,
    `defineYamlEvals({ file: ${JSON.stringify(relative(root, id))}, path: ${JSON.stringify(id)}, source: ${JSON.stringify(source)}, agents: { ${agents.join(", ")} }, defaults: ${JSON.stringify(defaults)} });`,
    "",
  ].join("\n");
}

/**
 * The cases' names and agents, read by the same reader the test worker uses. A file it refuses gets no agent
 * here: the worker refuses it again while Vitest collects it, naming the fault and its place.
 */
function casesOf(source: string, id: string): readonly { name?: unknown; agent?: unknown; adapter?: unknown }[] {
  try {
    return readYamlEvalFile(source, id);
  } catch {
    return [];
  }
}
