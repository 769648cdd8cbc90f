import { afterAll, beforeAll, test } from "vitest";
import { message, usageError } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import { readYamlEvalFile } from "../evals/yaml-file.js";
import { yamlSessionParts } from "../evals/yaml-mocks.js";
import { type EvalAgentFactory, runYamlCase } from "../evals/yaml-run.js";

/** What the plugin hands a YAML eval file's generated module. */
export interface YamlEvalsModule {
  /** The file, relative to the project root, for messages. */
  readonly file: string;
  readonly source: string;
  /** Each case's agent module, by case name, as the plugin resolved it. */
  readonly agents: Readonly<Record<string, () => Promise<Record<string, unknown>>>>;
  /** The plugin's `evals.variants` and `evals.seed`. */
  readonly defaults: { readonly variants?: number; readonly seed?: number };
}

/**
 * Declares one Vitest test per case of a `*.eval.yaml` file (the plugin's generated module calls it). The file
 * is read and every case's mocks validated while Vitest collects the file, so a fault fails the file with its
 * pointer before any test runs.
 */
export function defineYamlEvals(module: YamlEvalsModule): void {
  const cases = readYamlEvalFile(module.source, module.file);
  const parts = cases.map((evalCase) => yamlSessionParts(module.file, evalCase));
  // HTTP mocks answer what tooltrace's MSW server catches, and a strict session needs it to see every request:
  // the file starts one when a case has either.
  if (parts.some((part) => part.http.length > 0 || part.strict)) {
    let server: { close(): void } | undefined;
    beforeAll(async () => {
      server = (await import("../catchers/msw-server.js")).startLlmServer();
    });
    afterAll(() => server?.close());
  }
  for (const evalCase of cases) {
    const load = module.agents[evalCase.name];
    test(evalCase.name, async () => {
      if (load === undefined)
        throw usageError(
          `YAML eval ${module.file}, case "${evalCase.name}": no agent module to run it against.`,
          "add `agent: ./my-agent.ts` to the case (a module whose default export is defineEvalAgent(...)), or set tooltrace({ evals: { agent } }).",
        );
      const loaded = await load();
      const factory = (loaded.default ?? loaded.agent) as EvalAgentFactory | undefined;
      if (typeof factory !== "function")
        throw usageError(
          `YAML eval ${module.file}, case "${evalCase.name}": the agent module's default export is not a function.`,
          "export default defineEvalAgent(({ seed }) => ({ agent, tools })).",
        );
      const variants = envNumber("TOOLTRACE_VARIANTS") ?? evalCase.mocks?.variants ?? module.defaults.variants ?? 1;
      const seed = envNumber("TOOLTRACE_SEED") ?? evalCase.mocks?.seed ?? module.defaults.seed ?? 1;
      const result = await runYamlCase(module.file, evalCase, factory, { variants, seed });
      printOut("console", result.report, "log");
      if (!result.ok)
        throw new Error(
          message(`YAML eval "${evalCase.name}": ${result.trials.passed} of ${result.trials.count} variants passed.\n${result.report}`),
        );
    });
  }
}

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw usageError(`${name}=${raw}: an integer.`);
  return value;
}
