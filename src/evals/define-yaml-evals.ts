import { runFlags } from "../base/run-flags.js";
import { message, usageError } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import { agentFactoryOf } from "./yaml-agent.js";
import { readLocatedYamlCases } from "./yaml-file.js";
import { yamlSessionParts } from "./yaml-mocks.js";
import { runYamlCase } from "./yaml-run.js";

/** The runner's functions a YAML eval file declares its tests with: Vitest's, or Jest's globals. */
export interface YamlEvalsRunner {
  test(name: string, run: () => Promise<void>): void;
  beforeAll(run: () => Promise<void>): void;
  afterAll(run: () => void): void;
}

/** What the plugin (or the Jest transform) hands a YAML eval file's generated module. */
export interface YamlEvalsModule {
  /** The file, relative to the project root, for messages. */
  readonly file: string;
  /** The file's absolute path, for the stack frames that point into it. */
  readonly path?: string;
  readonly source: string;
  /** Each case's agent module, by case name, as the plugin resolved it: as written (`./a.ts#name`), and loaded. */
  readonly agents: Readonly<Record<string, { readonly spec: string; readonly load: () => Promise<Record<string, unknown>> }>>;
  /** The plugin's `evals.variants` and `evals.seed`. */
  readonly defaults: { readonly variants?: number; readonly seed?: number };
}

/**
 * Declares one test per case of a `*.eval.yaml` file (the generated module calls it). The file is read and every
 * case's mocks validated while the runner collects the file, so a fault fails the file with its pointer before
 * any test runs. A failed case points at the YAML line of the expectation it missed; a case that passes prints
 * nothing (its report shows under a verbose reporter, or when a variant failed).
 */
export function defineYamlEvals(module: YamlEvalsModule, runner: YamlEvalsRunner): void {
  const { test, beforeAll, afterAll } = runner;
  const cases = readLocatedYamlCases(module.source, module.file, module.path);
  const parts = cases.map(({ evalCase }) => yamlSessionParts(module.file, evalCase));
  // HTTP mocks answer what tooltrace's MSW server catches, and a strict session needs it to see every request:
  // the file starts one when a case has either.
  if (parts.some((part) => part.http.length > 0 || part.strict)) {
    let server: { close(): void } | undefined;
    beforeAll(async () => {
      server = (await import("../catchers/msw-server.js")).startLlmServer();
    });
    afterAll(() => server?.close());
  }
  for (const located of cases) {
    const { evalCase } = located;
    const agent = module.agents[evalCase.name];
    test(evalCase.name, async () => {
      if (agent === undefined)
        throw located.fault(
          "/name",
          "no agent module to run it against.",
          "add `agent: ./my-agent.ts` to the case (a module whose default export is defineEvalAgent(...)), or set tooltrace({ evals: { agent } }).",
        );
      const factory = agentFactoryOf(located, await agent.load(), agent.spec);
      const variants = envNumber("TOOLTRACE_VARIANTS") ?? evalCase.mocks?.variants ?? module.defaults.variants ?? 1;
      const seed = envNumber("TOOLTRACE_SEED") ?? evalCase.mocks?.seed ?? module.defaults.seed ?? 1;
      const result = await runYamlCase(located, factory, { variants, seed });
      const { passed, count } = result.trials;
      if (!result.ok) {
        const miss = result.firstMiss;
        const failure = new Error(
          message(`YAML eval "${evalCase.name}": ${passed} of ${count} variants passed${miss ? `: ${miss.text}` : ""}.\n${result.report}`),
        );
        throw located.pointAt(failure, miss?.pointer ?? "/name");
      }
      if (passed < count || runFlags.verbose) printOut("console", result.report, "log");
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
