import { existsSync } from "node:fs";
import { join } from "node:path";
import { PREFIX } from "../exits/errors.js";
import { type AgentLibrary, detectProject } from "./detect.js";
import { weatherAgentFile } from "./templates/agents.js";
import { type InitFiles, type ModelRoute, WEATHER_MODEL, weatherEval, yamlEval } from "./templates/shared.js";
import { checkConfig } from "./verify-config.js";
import { addPlugin, type ConfigOutcome, PLUGIN_IMPORT, setsInclude } from "./vitest-config.js";
import { writeSource } from "../exits/out.js";

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

/**
 * `npx tooltrace init`: adds the plugin to the project's Vitest config (writing one if there is none, touching
 * nothing else) and writes a first eval for the agent library `package.json` names, with the same eval in YAML.
 * A file that exists is never overwritten.
 */
export async function init(folder: string): Promise<InitReport> {
  const project = detectProject(folder);
  if (project === undefined)
    return {
      ok: false,
      lines: [`${PREFIX} init: no package.json here. Run it in your project's folder (npm init -y first for a new one).`],
    };
  const lines = [`${PREFIX} init: ${NAMES[project.library]} found in package.json.`];
  const config = await checked(folder, addPlugin(folder));
  lines.push(configLine(config));
  const route: ModelRoute = project.library === "ai-sdk" ? "ai-sdk" : project.library === "plain" ? "none" : "wire";
  const files: InitFiles = {
    "evals/weather-agent.ts": weatherAgentFile(project.library, project.langchainModel),
    ...(route === "none" ? {} : { "evals/weather-model.ts": WEATHER_MODEL }),
    "evals/weather.eval.ts": weatherEval(route),
    ...yamlEval(route),
  };
  for (const [path, text] of Object.entries(files)) {
    const target = join(folder, path);
    if (existsSync(target)) {
      lines.push(`  kept ${path}: it exists (nothing is overwritten)`);
      continue;
    }
    // Each file names itself on its first line, as the README shows it.
    writeSource("init files", target, `${path.endsWith(".yaml") ? "#" : "//"} ${path}\n${text}`);
    lines.push(`  wrote ${path}`);
  }
  if (setsInclude(folder))
    lines.push('  your config sets `include`: add "evals/**/*.eval.{ts,yaml}" to it, or the evals are not collected');
  if (project.others.length > 0)
    lines.push(`  also found: ${project.others.map((library) => NAMES[library]).join(", ")} (the first eval uses the first)`);
  lines.push("Run it: npx vitest run evals");
  return { ok: true, lines };
}

/**
 * The config edit, proved by loading the config where the project's Vite can: a config that loads without the
 * plugin is put back as it was and left to the user, so `init` never says it added a plugin that is not there.
 */
async function checked(folder: string, outcome: ConfigOutcome): Promise<ConfigOutcome> {
  if (outcome.kind !== "added" && outcome.kind !== "created") return outcome;
  const check = await checkConfig(folder, outcome.file);
  if (check !== "no plugin") return outcome;
  if (outcome.kind === "added" && outcome.original !== undefined) writeSource("init files", join(folder, outcome.file), outcome.original);
  return { kind: "manual", file: outcome.file, why: `add \`${PLUGIN_IMPORT}\` and \`tooltrace()\` to its \`plugins\`` };
}

function configLine(outcome: ConfigOutcome): string {
  switch (outcome.kind) {
    case "created":
      return `  wrote ${outcome.file} with the plugin`;
    case "added":
      return `  added the plugin to ${outcome.file}`;
    case "present":
      return `  ${outcome.file} has the plugin already`;
    case "manual":
      return `  left ${outcome.file} as it is (its shape is not one init edits): ${outcome.why}`;
  }
}
