import { existsSync } from "node:fs";
import { join } from "node:path";
import { PREFIX } from "../exits/errors.js";
import { writeSource } from "../exits/out.js";
import { type AgentLibrary, detectProject, type Project, type TestRunner } from "./detect.js";
import { addJestSetup, JEST_SETUP } from "./jest-config.js";
import { type JestTransform, jestTransform } from "./jest-transform.js";
import { weatherAgentFile } from "./templates/agents.js";
import { JEST_CJS_RUN, JEST_RUN, jestEval, jestTsEval } from "./templates/jest.js";
import { type InitFiles, type ModelRoute, weatherEval, weatherModelFile, yamlEval } from "./templates/shared.js";
import { checkConfig, checkJestConfig, jestRunsFile } from "./verify-config.js";
import { addPlugin, type ConfigOutcome, PLUGIN_IMPORT, setsInclude } from "./vitest-config.js";

const NAMES: Readonly<Record<AgentLibrary, string>> = {
  "agents-sdk": "the OpenAI Agents SDK",
  langchain: "LangChain",
  "ai-sdk": "the AI SDK",
  openai: "the OpenAI SDK",
  anthropic: "the Anthropic SDK",
  plain: "no agent library (a plain agent)",
};

/** What `tooltrace init` did, line by line, for the terminal; `ok` is false when there was no project. */
export interface InitReport {
  readonly ok: boolean;
  readonly lines: readonly string[];
}

/** The runner's part of init: its config's outcome, the files of the first eval, and how to run them. */
interface RunnerSetup {
  readonly config: ConfigOutcome;
  readonly files: InitFiles;
  readonly run: string;
  /** What to add to a config init left as it is. */
  readonly add: string;
  /** Packages the eval imports beside the agent library's. */
  readonly needs: readonly string[];
  /** Lines on how the eval was written, after the files. */
  readonly notes?: readonly string[];
}

/**
 * `npx tooltrace init`: adds the plugin to the project's Vitest config (writing one if there is none, touching
 * nothing else) and writes a first eval for the agent library `package.json` names, with the same eval in YAML.
 * In a Jest project (`jest` and no `vitest`), gives Jest tooltrace's setup file and writes the eval as a Jest
 * test: in TypeScript under ts-jest, in JavaScript otherwise. A file that exists is never overwritten.
 */
export async function init(folder: string): Promise<InitReport> {
  const project = detectProject(folder);
  if (project === undefined)
    return {
      ok: false,
      lines: [`${PREFIX} init: no package.json here. Run it in your project's folder (npm init -y first for a new one).`],
    };
  const lines = [`${PREFIX} init: ${NAMES[project.library]} found in package.json.`];
  const route: ModelRoute = project.library === "ai-sdk" ? "ai-sdk" : project.library === "plain" ? "none" : "wire";
  const setup = project.runner === "jest" ? await jestSetup(folder, project, route) : await vitestSetup(folder, project, route);
  lines.push(configLine(setup.config));
  for (const [path, text] of Object.entries(setup.files)) {
    const target = join(folder, path);
    if (existsSync(target)) {
      lines.push(`  kept ${path}: it exists (nothing is overwritten)`);
      continue;
    }
    // Each file names itself on its first line, as the README shows it.
    writeSource("init files", target, `${path.endsWith(".yaml") ? "#" : "//"} ${path}\n${text}`);
    lines.push(`  wrote ${path}`);
  }
  lines.push(...(setup.notes ?? []));
  const jestEvalFile = Object.keys(setup.files).find((path) => /\.test\.m?[jt]s$/.test(path));
  if (project.runner === "jest" && jestEvalFile !== undefined && jestRunsFile(folder, jestEvalFile) === false)
    lines.push(`  your Jest config does not pick up ${jestEvalFile}: add evals/ to its roots or testMatch, or it is not run`);
  if (project.runner === "vitest" && setsInclude(folder))
    lines.push('  your config sets `include`: add "evals/**/*.eval.{ts,yaml}" to it, or the evals are not collected');
  if (project.others.length > 0)
    lines.push(`  also found: ${project.others.map((library) => NAMES[library]).join(", ")} (the first eval uses the first)`);
  const missing = [...project.missing, ...setup.needs.filter((name) => !project.dependencies.includes(name))];
  if (missing.length > 0) {
    const names = missing.join(" ");
    lines.push(`  add ${names}: the first eval needs ${missing.length === 1 ? "it" : "them"} (npm i -D ${names})`);
  }
  if (setup.config.kind === "manual") {
    // The evals run only once the config has tooltrace: the one thing left to do comes before the command.
    lines.push(`Add to ${setup.config.file}: ${setup.add}`);
    lines.push(`Then run it: ${setup.run}`);
  } else lines.push(`Run it: ${setup.run}`);
  return { ok: true, lines };
}

async function vitestSetup(folder: string, project: Project, route: ModelRoute): Promise<RunnerSetup> {
  return {
    config: await checked(folder, addPlugin(folder), "vitest"),
    files: {
      "evals/weather-agent.ts": weatherAgentFile(project.library, "ts", project.langchainModel),
      ...(route === "none" ? {} : { "evals/weather-model.ts": weatherModelFile("ts") }),
      "evals/weather.eval.ts": weatherEval(route),
      ...yamlEval(route),
    },
    run: "npx vitest run evals",
    add: `\`${PLUGIN_IMPORT}\` at the top, and \`tooltrace()\` in its \`plugins: [...]\``,
    needs: [],
  };
}

/**
 * Jest runs JavaScript modules without a transform, so the eval and its agent are `.mjs` files; under ts-jest or
 * babel-jest with Babel's TypeScript preset, they are TypeScript, in the module system the project's Jest runs.
 */
async function jestSetup(folder: string, project: Project, route: ModelRoute): Promise<RunnerSetup> {
  const transform = jestTransform(folder, project.jestKey, project.dependencies);
  if (transform.kind !== "js") return typescriptJestSetup(folder, project, route, transform);
  return {
    config: await checked(folder, addJestSetup(folder, project.jestKey), "jest"),
    files: {
      "evals/weather-agent.mjs": weatherAgentFile(project.library, "js", project.langchainModel),
      ...(route === "none" ? {} : { "evals/weather-model.mjs": weatherModelFile("js") }),
      "evals/weather.test.mjs": jestEval(route),
    },
    run: JEST_RUN,
    add: `\`${JEST_SETUP}\``,
    needs: [],
    notes: transform.why === undefined ? [] : [`  the eval is JavaScript: ${transform.why}`],
  };
}

/** The eval in TypeScript, for the transform the project's Jest runs it with; a config init writes names ts-jest. */
async function typescriptJestSetup(
  folder: string,
  project: Project,
  route: ModelRoute,
  transform: Exclude<JestTransform, { kind: "js" }>,
): Promise<RunnerSetup> {
  const created = transform.config === "created";
  const preset = transform.kind === "ts-jest" ? (transform.esm ? "ts-jest/presets/default-esm" : "ts-jest") : undefined;
  const mode = transform.esm ? " in Jest's ESM mode" : "";
  const notes = [`  the eval is TypeScript for ${transform.kind}${mode}, typed by its \`import type {} from "tooltrace/jest"\``];
  if (transform.types !== undefined) notes.push(`  add "jest" to ${transform.types}: the eval's \`test\` and \`expect\` are typed by it`);
  if (transform.mapper !== undefined && !created)
    notes.push(`  add to your Jest config \`${transform.mapper}\`: Jest finds the eval's ./weather-agent.js (a .ts file) by it`);
  const written = created && preset !== undefined ? { preset, mapper: transform.mapper } : undefined;
  return {
    config: await checked(folder, addJestSetup(folder, project.jestKey, written), "jest"),
    files: {
      "evals/weather-agent.ts": weatherAgentFile(project.library, "ts", project.langchainModel),
      ...(route === "none" ? {} : { "evals/weather-model.ts": weatherModelFile("ts") }),
      "evals/weather.test.ts": jestTsEval(route, transform.extension),
    },
    run: transform.esm ? JEST_RUN : JEST_CJS_RUN,
    add: `\`${JEST_SETUP}\``,
    // Jest's globals, typed.
    needs: ["@types/jest"],
    notes,
  };
}

/**
 * The config edit, proved by loading the config where the project's Vite (or Jest) can: a config that loads
 * without tooltrace is put back as it was and left to the user, so `init` never says it added what is not there.
 */
async function checked(folder: string, outcome: ConfigOutcome, runner: TestRunner): Promise<ConfigOutcome> {
  if (outcome.kind !== "added" && outcome.kind !== "created") return outcome;
  const check = runner === "jest" ? checkJestConfig(folder) : await checkConfig(folder, outcome.file);
  if (check !== "no plugin") return outcome;
  if (outcome.kind === "added" && outcome.original !== undefined) writeSource("init files", join(folder, outcome.file), outcome.original);
  const what = runner === "jest" ? "tooltrace's setup file" : "the plugin";
  return { kind: "manual", file: outcome.file, why: `with ${what} added, it still loaded without it` };
}

function configLine(outcome: ConfigOutcome): string {
  switch (outcome.kind) {
    case "created":
      return `  wrote ${outcome.file} with ${isJestConfig(outcome.file) ? "tooltrace's setup file and reporter" : "the plugin"}`;
    case "added":
      return `  added ${outcome.what ?? (isJestConfig(outcome.file) ? "tooltrace's setup file" : "the plugin")} to ${outcome.file}`;
    case "present":
      return `  ${outcome.file} has ${isJestConfig(outcome.file) ? "tooltrace's setup file" : "the plugin"} already`;
    case "manual":
      return `  left ${outcome.file} as it is: ${outcome.why}`;
  }
}

/** A Jest config: `jest.config.*`, or package.json's `jest` key. */
function isJestConfig(file: string): boolean {
  return file.startsWith("jest") || file === "package.json";
}
