import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { describe, expect, test } from "vitest";
import { projectInstalled, projectWithPackage, writeStrictTsconfig } from "../fixtures/installed-project.js";
import { typeCheckTogether } from "../fixtures/type-check.js";

const run = promisify(execFile);

/** A fresh project with the built package and the given dependencies in its package.json, then `tooltrace init`. */
async function initIn(name: string, dependencies: Record<string, string>, files: Record<string, string> = {}) {
  const project = projectWithPackage(`init-${name}`);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name, type: "module", private: true, dependencies }));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(project, path), text);
  const init = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
  return { project, said: init.stdout };
}

async function vitestRun(project: string): Promise<string> {
  const result = await run(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], {
    cwd: project,
    env: { ...process.env, CI: "1" },
  }).catch((error: { stdout: string; stderr: string }) => error);
  return stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
}

const libraries: Record<string, { dependencies: Record<string, string>; found: string; add?: string }> = {
  "the AI SDK": { dependencies: { ai: "*" }, found: "the AI SDK found" },
  "the OpenAI SDK": { dependencies: { openai: "*" }, found: "the OpenAI SDK found" },
  "the Anthropic SDK": { dependencies: { "@anthropic-ai/sdk": "*" }, found: "the Anthropic SDK found" },
  LangChain: {
    dependencies: { langchain: "*", "@langchain/openai": "*" },
    found: "LangChain found",
    // The agent imports its tool() from @langchain/core, which langchain has as a peer dependency.
    add: "add @langchain/core: the first eval needs it (npm i -D @langchain/core)",
  },
  // Problem: LangChain without a model package yet was "no agent library", and got a plain agent.
  "LangChain's core packages alone": {
    dependencies: { langchain: "*", "@langchain/core": "*" },
    found: "LangChain found",
    add: "add @langchain/openai: the first eval needs it (npm i -D @langchain/openai)",
  },
  "the OpenAI Agents SDK": { dependencies: { "@openai/agents": "*" }, found: "the OpenAI Agents SDK found" },
  "no agent library": { dependencies: {}, found: "no agent library (a plain agent) found" },
};

/**
 * `init` in a project for each library, then what it wrote type-checked under a plain strict tsconfig: in one
 * tsc --build, each project its own program (six processes read the same SDKs' declarations six times). The
 * tsconfig has a name of its own: a tsconfig.json would change how Vite transforms the first run's files.
 */
let initialized: Promise<Map<string, { project: string; said: string; typeErrors: string }>> | undefined;
function initializedAll(): Promise<Map<string, { project: string; said: string; typeErrors: string }>> {
  initialized ??= (async () => {
    const inits = new Map<string, { project: string; said: string }>();
    for (const [name, { dependencies }] of Object.entries(libraries))
      inits.set(name, await initIn(name.replace(/\W+/g, "-"), dependencies));
    const tsconfigs = [...inits.values()].map(({ project }) => {
      writeStrictTsconfig(project, {
        include: ["evals", "vitest.config.ts"],
        skipLibCheck: true,
        types: ["node"],
        file: "tsconfig.strict.json",
      });
      return join(project, "tsconfig.strict.json");
    });
    const diagnosticsOf = await typeCheckTogether(tsconfigs);
    return new Map([...inits].map(([name, init], index) => [name, { ...init, typeErrors: diagnosticsOf(tsconfigs[index] as string) }]));
  })();
  return initialized;
}

describe.skipIf(!projectInstalled)("npx tooltrace init", () => {
  for (const [name, { found, add }] of Object.entries(libraries)) {
    test(`${name}: a config with the plugin, a first eval and its YAML twin; the first run is green`, { timeout: 120_000 }, async () => {
      const { project, said, typeErrors } = (await initializedAll()).get(name) as { project: string; said: string; typeErrors: string };
      expect(said).toContain(found);
      if (add === undefined) expect(said).not.toContain("  add ");
      else expect(said).toContain(add);
      expect(said).toContain("wrote vitest.config.ts with the plugin");
      for (const file of ["evals/weather-agent.ts", "evals/weather.eval.ts", "evals/weather.eval.yaml", "evals/weather-yaml-agent.ts"])
        expect(existsSync(join(project, file)), file).toBe(true);
      const output = await vitestRun(project);
      expect(output).toMatch(/Test Files\s+2 passed \(2\)/);
      expect(output).toMatch(/Tests\s+2 passed \(2\)/);
      // What it wrote type-checks under a plain strict tsconfig.
      expect(typeErrors).toBe("");
    });
  }

  test("an existing config gets the plugin and nothing else; a second init overwrites nothing", { timeout: 120_000 }, async () => {
    const config = `import { defineConfig } from "vitest/config";\n\nexport default defineConfig({\n  test: { testTimeout: 20_000 },\n});\n`;
    const { project, said } = await initIn("existing", { openai: "*" }, { "vitest.config.ts": config });
    expect(said).toContain("added the plugin to vitest.config.ts");
    const edited = readFileSync(join(project, "vitest.config.ts"), "utf8");
    expect(edited).toBe(
      `import { defineConfig } from "vitest/config";\nimport { tooltrace } from "tooltrace/vitest";\n\nexport default defineConfig({\n  plugins: [tooltrace()],\n  test: { testTimeout: 20_000 },\n});\n`,
    );
    writeFileSync(join(project, "evals/weather.eval.ts"), "// mine\n");
    const again = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
    expect(again.stdout).toContain("vitest.config.ts has the plugin already");
    expect(again.stdout).toContain("kept evals/weather.eval.ts: it exists (nothing is overwritten)");
    expect(readFileSync(join(project, "evals/weather.eval.ts"), "utf8")).toBe("// mine\n");
    expect(readFileSync(join(project, "vitest.config.ts"), "utf8")).toBe(edited);
  });

  test("a config with plugins gets tooltrace() first among them; one it cannot edit is left, with what to add", {
    timeout: 60_000,
  }, async () => {
    const withPlugins = `import { defineConfig } from "vitest/config";\nimport react from "@vitejs/plugin-react";\nexport default defineConfig({ plugins: [react()] });\n`;
    const { project } = await initIn("plugins", {}, { "vitest.config.ts": withPlugins });
    expect(readFileSync(join(project, "vitest.config.ts"), "utf8")).toBe(
      `import { defineConfig } from "vitest/config";\nimport react from "@vitejs/plugin-react";\nimport { tooltrace } from "tooltrace/vitest";\nexport default defineConfig({ plugins: [tooltrace(), react()] });\n`,
    );
    const odd = `module.exports = require("./shared-config.cjs");\n`;
    const { project: other, said } = await initIn("odd", {}, { "vitest.config.cjs": odd });
    expect(said).toContain("left vitest.config.cjs as it is: its shape is not one init edits");
    expect(said).toContain('Add to vitest.config.cjs: `import { tooltrace } from "tooltrace/vitest";` at the top');
    expect(readFileSync(join(other, "vitest.config.cjs"), "utf8")).toBe(odd);
  });

  test("without a package.json it says where to run it", { timeout: 30_000 }, async () => {
    const project = projectWithPackage("init-none");
    const result = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], {
      cwd: join(project, "node_modules", "tooltrace", "dist"),
    }).catch((error: { stdout: string; code: number }) => error);
    expect(result.stdout).toContain("init: no package.json here");
  });
});

describe.skipIf(!projectInstalled)("npx tooltrace init in a CommonJS package (npm init's default)", () => {
  test("writes vitest.config.mts, so Vite reads an ES module config, and the first run is green without warnings", {
    timeout: 120_000,
  }, async () => {
    const project = projectWithPackage("init-cjs");
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "cjs", version: "1.0.0", type: "commonjs", devDependencies: { ai: "*" } }),
    );
    const init = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
    expect(init.stdout).toContain("wrote vitest.config.mts with the plugin");
    const output = await vitestRun(project);
    expect(output).toMatch(/Tests\s+2 passed \(2\)/);
    expect(output).not.toContain("ESM syntax in a file loaded as CommonJS");
  });
});
