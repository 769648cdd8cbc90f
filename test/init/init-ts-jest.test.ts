// `tooltrace init` in a ts-jest project: the first eval in TypeScript, green under real Jest 30 and ts-jest (in
// CommonJS, and in Jest's ESM mode), and type-checked by the project's own tsc under its tsconfig.json.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";
import { jestEvals } from "../fixtures/jest-run.js";

const run = promisify(execFile);
const TS_JEST = { jest: "*", "ts-jest": "*", typescript: "*", "@types/jest": "*" };
/** The tsconfig.json of a CommonJS ts-jest project: Node's old resolution (no `exports`), Jest's global types. */
const CJS_TSCONFIG = { target: "es2022", module: "commonjs", strict: true, esModuleInterop: true, skipLibCheck: true };

interface Setup {
  readonly dependencies?: Record<string, string>;
  readonly manifest?: object;
  readonly tsconfig: object;
  /** The project's jest.config.js, when it has one. */
  readonly config?: string;
  /** Other files of the project, by name. */
  readonly files?: Record<string, string>;
}

/** A project with Jest, ts-jest, TypeScript and `dependencies`, the built package installed, then `tooltrace init`. */
async function initIn(name: string, { dependencies = {}, manifest = {}, tsconfig, config, files = {} }: Setup) {
  const project = projectWithPackage(`init-ts-jest-${name}`);
  const devDependencies = { ...TS_JEST, ...dependencies };
  writeFileSync(join(project, "package.json"), JSON.stringify({ name, version: "1.0.0", devDependencies, ...manifest }));
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: tsconfig }, null, 2));
  if (config !== undefined) writeFileSync(join(project, "jest.config.js"), config);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(project, file), text);
  const init = await run(process.execPath, [join(project, "node_modules", "tooltrace", "dist", "bin.js"), "init"], { cwd: project });
  return { project, said: init.stdout };
}

/** `npx tsc --noEmit` in the project: what it said, "" when the project type-checks. */
async function tscSays(project: string): Promise<string> {
  const tsc = join(project, "node_modules", "typescript", "bin", "tsc");
  return run(process.execPath, [tsc, "--noEmit", "--pretty", "false"], { cwd: project }).then(
    ({ stdout }) => stdout,
    (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}` || "tsc failed",
  );
}

const GREEN = [{ title: "answers with the weather its tool returned", status: "passed", failureMessages: [] }];

const libraries: Record<string, Record<string, string>> = {
  "no agent library": {},
  "the AI SDK": { ai: "*" },
  "the OpenAI SDK": { openai: "*" },
};

describe.skipIf(!projectInstalled)("npx tooltrace init in a ts-jest project", () => {
  for (const [name, dependencies] of Object.entries(libraries)) {
    test(`${name}, CommonJS (preset "ts-jest"): a TypeScript eval, green under npx jest and npx tsc --noEmit`, {
      timeout: 120_000,
    }, async () => {
      // Problem: init wrote evals/weather.test.mjs for Jest's ESM mode in a ts-jest project whose tests are .ts.
      const config = 'module.exports = {\n  preset: "ts-jest",\n  testEnvironment: "node",\n};\n';
      const { project, said } = await initIn(`cjs-${name.replace(/\W+/g, "-")}`, { dependencies, tsconfig: CJS_TSCONFIG, config });
      expect(said).toContain("added tooltrace's setup file and reporter to jest.config.js");
      expect(said).toContain("wrote evals/weather.test.ts");
      expect(said).toContain('the eval is TypeScript for ts-jest, typed by its `import type {} from "tooltrace/jest"`');
      expect(said).not.toContain("add ");
      expect(said.trimEnd().split("\n").at(-1)).toBe("Run it: npx jest evals");
      expect(existsSync(join(project, "evals", "weather.test.mjs"))).toBe(false);
      expect(await jestEvals(project, false)).toEqual(GREEN);
      expect(await tscSays(project)).toBe("");
    });
  }

  test("no Jest config yet: jest.config.mjs with ts-jest's preset, the setup file and the reporter; green", {
    timeout: 120_000,
  }, async () => {
    const { project, said } = await initIn("no-config", { dependencies: { ai: "*" }, tsconfig: CJS_TSCONFIG });
    expect(said).toContain("wrote jest.config.mjs with tooltrace's setup file");
    expect(readFileSync(join(project, "jest.config.mjs"), "utf8")).toContain('preset: "ts-jest",');
    expect(await jestEvals(project, false)).toEqual(GREEN);
    expect(await tscSays(project)).toBe("");
    expect(existsSync(join(project, "tooltrace-report", "index.html"))).toBe(true);
  });

  test('ESM (ts-jest/presets/default-esm, "type": "module"): green in Jest\'s ESM mode, and tsc under bundler resolution', {
    timeout: 120_000,
  }, async () => {
    const config = 'export default {\n  preset: "ts-jest/presets/default-esm",\n  testEnvironment: "node",\n};\n';
    const tsconfig = { target: "es2022", module: "esnext", moduleResolution: "bundler", strict: true, skipLibCheck: true };
    const { project, said } = await initIn("esm", { dependencies: { openai: "*" }, manifest: { type: "module" }, tsconfig, config });
    expect(said).toContain("the eval is TypeScript for ts-jest in Jest's ESM mode");
    expect(said.trimEnd().split("\n").at(-1)).toBe("Run it: NODE_OPTIONS=--experimental-vm-modules npx jest evals");
    expect(await jestEvals(project, true)).toEqual(GREEN);
    expect(await tscSays(project)).toBe("");
  });

  test("ESM under nodenext with no config: ./weather-agent.js imports, and the config maps them to the .ts files", {
    timeout: 120_000,
  }, async () => {
    const tsconfig = { target: "es2022", module: "nodenext", strict: true, skipLibCheck: true, types: ["jest", "node"] };
    const { project } = await initIn("esm-nodenext", { dependencies: { ai: "*" }, manifest: { type: "module" }, tsconfig });
    expect(readFileSync(join(project, "evals", "weather.test.ts"), "utf8")).toContain('from "./weather-agent.js";');
    expect(readFileSync(join(project, "jest.config.mjs"), "utf8")).toContain("moduleNameMapper");
    expect(await jestEvals(project, true)).toEqual(GREEN);
    expect(await tscSays(project)).toBe("");
  });

  test("tsconfig.json's `types` without Jest's, and no @types/jest: both named, to add", { timeout: 60_000 }, async () => {
    const config = 'module.exports = { preset: "ts-jest" };\n';
    const manifest = { devDependencies: { jest: "*", "ts-jest": "*", typescript: "*" } };
    const { said } = await initIn("types", { tsconfig: { ...CJS_TSCONFIG, types: ["node"] }, config, manifest });
    expect(said).toContain('add "jest" to tsconfig.json\'s compilerOptions.types');
    expect(said).toContain("add @types/jest: the first eval needs it (npm i -D @types/jest)");
  });

  test("ts-jest installed but not in the Jest config: a JavaScript eval, and why", { timeout: 60_000 }, async () => {
    const config = 'module.exports = { testEnvironment: "node" };\n';
    const { said } = await initIn("unused", { tsconfig: CJS_TSCONFIG, config });
    expect(said).toContain("wrote evals/weather.test.mjs");
    expect(said).toContain("the eval is JavaScript: ts-jest is installed but jest.config.js does not name it");
  });

  test("babel-jest with @babel/preset-typescript and preset-env: a TypeScript eval, green, and tsc", {
    timeout: 120_000,
  }, async () => {
    const babel = { jest: "*", typescript: "*", "@types/jest": "*", "@babel/preset-env": "*", "@babel/preset-typescript": "*" };
    const presets = '[["@babel/preset-env", { targets: { node: "current" } }], "@babel/preset-typescript"]';
    const { project, said } = await initIn("babel", {
      manifest: { devDependencies: { ...babel, ai: "*" } },
      tsconfig: CJS_TSCONFIG,
      files: { "babel.config.js": `module.exports = { presets: ${presets} };\n` },
    });
    expect(said).toContain("wrote jest.config.mjs with tooltrace's setup file");
    expect(said).toContain("the eval is TypeScript for babel-jest, typed by its");
    expect(said.trimEnd().split("\n").at(-1)).toBe("Run it: npx jest evals");
    expect(readFileSync(join(project, "jest.config.mjs"), "utf8")).not.toContain("preset");
    expect(await jestEvals(project, false)).toEqual(GREEN);
    expect(await tscSays(project)).toBe("");
  });

  test("babel-jest whose Babel config keeps `import`: a JavaScript eval, and why", { timeout: 60_000 }, async () => {
    const manifest = { devDependencies: { jest: "*", typescript: "*", "@babel/preset-typescript": "*" } };
    const files = { ".babelrc": '{ "presets": ["@babel/preset-typescript"] }\n' };
    const { said } = await initIn("babel-esm", { manifest, tsconfig: CJS_TSCONFIG, files });
    expect(said).toContain("wrote evals/weather.test.mjs");
    expect(said).toContain("the eval is JavaScript: .babelrc does not turn `import` into `require` (@babel/preset-env)");
  });

  test("a Jest config whose testMatch leaves evals/ out: init says its eval is not picked up", { timeout: 60_000 }, async () => {
    // Problem: init said "Run it" for an eval the project's Jest never collects (tests under src/ only).
    const config = 'module.exports = { preset: "ts-jest", testMatch: ["**/src/**/*.test.ts"] };\n';
    const { said } = await initIn("roots", { tsconfig: CJS_TSCONFIG, config });
    expect(said).toContain("your Jest config does not pick up evals/weather.test.ts: add evals/ to its roots or testMatch");
  });
});
