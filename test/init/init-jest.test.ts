// `tooltrace init` in a Jest project (`jest`, no `vitest`): tooltrace's Jest setup, the first eval as a Jest test
// in JavaScript (no TypeScript transform needed), and the command that runs it, green.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";
import { jestEvals } from "../fixtures/jest-run.js";

const run = promisify(execFile);

/** A CommonJS project (npm init's default) with Jest, the built package and `dependencies`, then `tooltrace init`. */
async function initIn(name: string, dependencies: Record<string, string>, manifest: object = {}) {
  const project = projectWithPackage(`init-jest-${name}`);
  const devDependencies = { jest: "*", ...dependencies };
  writeFileSync(join(project, "package.json"), JSON.stringify({ name, version: "1.0.0", devDependencies, ...manifest }));
  const init = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
  return { project, said: init.stdout };
}

const libraries: Record<string, Record<string, string>> = {
  "the AI SDK": { ai: "*" },
  "the OpenAI SDK": { openai: "*" },
  "the Anthropic SDK": { "@anthropic-ai/sdk": "*" },
  LangChain: { langchain: "*", "@langchain/core": "*", "@langchain/openai": "*" },
  "the OpenAI Agents SDK": { "@openai/agents": "*" },
  "no agent library": {},
};

describe.skipIf(!projectInstalled)("npx tooltrace init in a Jest project", () => {
  for (const [name, dependencies] of Object.entries(libraries)) {
    test(`${name}: jest.config.mjs with tooltrace/jest and a first eval as a Jest test; the printed command is green`, {
      timeout: 120_000,
    }, async () => {
      // Problem: a Jest project got vitest.config.mts and Vitest evals it has no runner for.
      const { project, said } = await initIn(name.replace(/\W+/g, "-"), dependencies);
      expect(said).toContain("wrote jest.config.mjs with tooltrace's setup file");
      expect(said).toContain("wrote evals/weather.test.mjs");
      expect(said.trimEnd().split("\n").at(-1)).toBe("Run it: NODE_OPTIONS=--experimental-vm-modules npx jest evals");
      expect(said).not.toContain("add ");
      const config = readFileSync(join(project, "jest.config.mjs"), "utf8");
      expect(config).toContain('setupFilesAfterEnv: ["tooltrace/jest"]');
      expect(config).toContain('reporters: ["default", "tooltrace/jest-reporter"]');
      expect(existsSync(join(project, "vitest.config.mts")) || existsSync(join(project, "vitest.config.ts"))).toBe(false);
      const results = await jestEvals(project, true);
      expect(results, JSON.stringify(results, null, 2)).toEqual([
        { title: "answers with the weather its tool returned", status: "passed", failureMessages: [] },
      ]);
      // The reporter init configured wrote the run's viewer.
      expect(existsSync(join(project, "tooltrace-report", "index.html"))).toBe(true);
    });
  }

  test("Jest configured in package.json: the setup file added to its `jest` key, the rest as it was, and green", {
    timeout: 120_000,
  }, async () => {
    // Problem: the config was left as it was ("init does not edit a Jest config") and the eval failed to run.
    const { project, said } = await initIn("jest-key", {}, { jest: { testEnvironment: "node", setupFilesAfterEnv: ["./setup.cjs"] } });
    writeFileSync(join(project, "setup.cjs"), "globalThis.userSetup = true;\n");
    expect(existsSync(join(project, "jest.config.mjs"))).toBe(false);
    expect(said).toContain("added tooltrace's setup file and reporter to package.json");
    expect(said.trimEnd().split("\n").at(-1)).toBe("Run it: NODE_OPTIONS=--experimental-vm-modules npx jest evals");
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(manifest.jest).toEqual({
      testEnvironment: "node",
      setupFilesAfterEnv: ["./setup.cjs", "tooltrace/jest"],
      reporters: ["default", "tooltrace/jest-reporter"],
    });
    expect(existsSync(join(project, "tooltrace-report", "index.html"))).toBe(false);
    expect(await jestEvals(project, true)).toEqual([
      { title: "answers with the weather its tool returned", status: "passed", failureMessages: [] },
    ]);
    // The reporter added beside Jest's own wrote the viewer's page.
    expect(existsSync(join(project, "tooltrace-report", "index.html"))).toBe(true);
  });

  test("a jest.config.js of the user's: the setup file added to it, checked by Jest's own --showConfig, and green", {
    timeout: 120_000,
  }, async () => {
    const project = projectWithPackage("init-jest-config-js");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", devDependencies: { jest: "*" } }));
    const config = '// the user\'s own\nmodule.exports = {\n  testEnvironment: "node", // a comment: setupFilesAfterEnv: [\n};\n';
    writeFileSync(join(project, "jest.config.js"), config);
    const init = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
    expect(init.stdout).toContain("added tooltrace's setup file and reporter to jest.config.js");
    expect(readFileSync(join(project, "jest.config.js"), "utf8")).toBe(
      '// the user\'s own\nmodule.exports = {\n  setupFilesAfterEnv: ["tooltrace/jest"],\n  reporters: ["default", "tooltrace/jest-reporter"],\n  testEnvironment: "node", // a comment: setupFilesAfterEnv: [\n};\n',
    );
    expect(await jestEvals(project, true)).toEqual([
      { title: "answers with the weather its tool returned", status: "passed", failureMessages: [] },
    ]);
  });

  test("a Jest config init cannot edit is left as it was, with what to add before the command", { timeout: 60_000 }, async () => {
    const project = projectWithPackage("init-jest-config-shape");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", devDependencies: { jest: "*" } }));
    const config = 'const base = require("./base.cjs");\nmodule.exports = base;\n';
    writeFileSync(join(project, "jest.config.cjs"), config);
    const init = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
    expect(readFileSync(join(project, "jest.config.cjs"), "utf8")).toBe(config);
    expect(init.stdout.trimEnd().split("\n").slice(-2)).toEqual([
      'Add to jest.config.cjs: `setupFilesAfterEnv: ["tooltrace/jest"]`',
      "Then run it: NODE_OPTIONS=--experimental-vm-modules npx jest evals",
    ]);
  });
});
