// Every file `tooltrace init` can write, for every library and both runners: lines of at most 120 characters, as
// Biome formats them, and the agent's header true of it.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import type { AgentLibrary, LangchainModel } from "../../src/init/detect.js";
import { weatherAgentFile } from "../../src/init/templates/agents.js";
import { jestConfig, jestEval, jestTsEval } from "../../src/init/templates/jest.js";
import { type ModelRoute, weatherEval, weatherModelFile, yamlEval } from "../../src/init/templates/shared.js";
import { MAPPER } from "../../src/init/jest-transform.js";
import { packageFile } from "../fixtures/versions.js";

const LIBRARIES: readonly AgentLibrary[] = ["agents-sdk", "langchain", "ai-sdk", "openai", "anthropic", "plain"];
const ROUTES: readonly ModelRoute[] = ["wire", "ai-sdk", "none"];
const LANGCHAIN_MODELS: readonly LangchainModel[] = ["@langchain/openai", "@langchain/anthropic"];

/** Every template's output, by a name that says which. */
function everyTemplate(): Map<string, string> {
  const files = new Map<string, string>();
  for (const lang of ["ts", "js"] as const) {
    const ext = lang === "ts" ? "ts" : "mjs";
    for (const library of LIBRARIES)
      for (const model of library === "langchain" ? LANGCHAIN_MODELS : [undefined])
        files.set(`${library}${model ? `-${model.split("/")[1]}` : ""}-agent.${ext}`, weatherAgentFile(library, lang, model));
    files.set(`weather-model.${ext}`, weatherModelFile(lang));
  }
  for (const route of ROUTES) {
    files.set(`${route}.eval.ts`, weatherEval(route));
    files.set(`${route}.test.mjs`, jestEval(route));
    files.set(`${route}.test.ts`, jestTsEval(route, ""));
    files.set(`${route}-esm.test.ts`, jestTsEval(route, ".js"));
    for (const [path, text] of Object.entries(yamlEval(route))) files.set(`${route}-${path.split("/")[1]}`, text);
  }
  files.set("jest.config.mjs", jestConfig());
  files.set("ts-jest.config.mjs", jestConfig({ preset: "ts-jest" }));
  files.set("ts-jest-esm.config.mjs", jestConfig({ preset: "ts-jest/presets/default-esm", mapper: MAPPER }));
  return files;
}

describe("the files tooltrace init writes", () => {
  test("every line is at most 120 characters", () => {
    // Problem: the OpenAI, Anthropic, LangChain and Agents SDK agents had lines of 150 to 200 characters.
    const long = [...everyTemplate()].flatMap(([name, text]) =>
      text.split("\n").flatMap((line, index) => (line.length > 120 ? [`${name}:${index + 1} (${line.length})`] : [])),
    );
    expect(long).toEqual([]);
  });

  test("every TypeScript and JavaScript file is as Biome formats it (width 120)", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tooltrace-init-templates-"));
    writeFileSync(join(folder, "biome.json"), '{ "formatter": { "indentStyle": "space", "lineWidth": 120 } }\n');
    mkdirSync(join(folder, "evals"));
    for (const [name, text] of everyTemplate()) if (!name.endsWith(".yaml")) writeFileSync(join(folder, "evals", name), text);
    const result = await promisify(execFile)(process.execPath, [packageFile("@biomejs/biome", "bin", "biome"), "format", "evals"], {
      cwd: folder,
    }).then(
      () => "",
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(result).toBe("");
  });

  test("the plain agent's header says it has no model; the others say a scripted model stands in", () => {
    // Problem: the plain agent's header said a scripted model stands in for the LLM, then "with no model".
    for (const lang of ["ts", "js"] as const) {
      expect(weatherAgentFile("plain", lang)).not.toContain("scripted model");
      for (const library of LIBRARIES.filter((name) => name !== "plain"))
        expect(weatherAgentFile(library, lang)).toContain("a scripted model stands in for the LLM");
    }
  });
});
