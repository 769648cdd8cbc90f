import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, quantile } from "./stats.js";
import { projectWithBuiltPackage } from "./built-package.js";

/**
 * What the plugin costs a test file and a test that do not use tooltrace: 20 files of one trivial test, and
 * one file of 2,000 trivial tests, run by `vitest run` in a project with the built package installed, once
 * with Vitest alone and once per plugin setting, alternating (ABBA). The cost is the difference of paired
 * runs, per file (or per test).
 */
const root = join(import.meta.dirname, "..", "..");
const FILES = 20;
const TESTS = 5000;

export const CONFIGS = {
  "Vitest alone": "",
  "an empty setup file (floor)": "setup",
  "tooltrace() (hermetic)": "tooltrace()",
  "tooltrace({ llm: true })": "tooltrace({ llm: true })",
  "tooltrace({ strict: true })": "tooltrace({ strict: true })",
} as const;
type Config = keyof typeof CONFIGS;

function project(): string {
  const folder = projectWithBuiltPackage("per-file");
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "per-file", type: "module", private: true }));
  mkdirSync(join(folder, "files"));
  for (let i = 0; i < FILES; i++)
    writeFileSync(
      join(folder, "files", `t${i}.test.ts`),
      `import { expect, test } from "vitest";\ntest("t${i}", () => expect(1).toBe(1));\n`,
    );
  mkdirSync(join(folder, "tests"));
  writeFileSync(
    join(folder, "tests", "many.test.ts"),
    `import { expect, test } from "vitest";\nfor (let i = 0; i < ${TESTS}; i++) test(\`t\${i}\`, () => expect(i).toBe(i));\n`,
  );
  // A test file's `import "tooltrace"`, timed in the worker after the plugin's setup: the CommonJS build the setup
  // loaded, through the ES entry's bridge.
  mkdirSync(join(folder, "imports"));
  for (let i = 0; i < FILES; i++)
    writeFileSync(
      join(folder, "imports", `i${i}.test.ts`),
      `import { expect, test } from "vitest";\ntest("i${i}", async () => {\n  const started = performance.now();\n  const { createSession } = await import("tooltrace");\n  console.log("IMPORT_MS", performance.now() - started);\n  expect(typeof createSession).toBe("function");\n});\n`,
    );
  writeFileSync(join(folder, "empty-setup.mjs"), "export {};\n");
  for (const [index, plugin] of Object.values(CONFIGS).entries()) {
    const setup = plugin === "setup";
    writeFileSync(
      join(folder, `c${index}.config.ts`),
      `import { defineConfig } from "vitest/config";\n${plugin && !setup ? 'import { tooltrace } from "tooltrace/vitest";\n' : ""}export default defineConfig({ ${plugin && !setup ? `plugins: [${plugin}], ` : ""}test: { include: ["**/*.test.ts"]${setup ? ', setupFiles: ["./empty-setup.mjs"]' : ""} } });\n`,
    );
  }
  return folder;
}

type Target = "files" | "tests" | "imports";

function run(folder: string, config: Config, target: Target): number {
  return vitest(folder, config, target).ms;
}

function vitest(folder: string, config: Config, target: Target): { ms: number; output: string } {
  const index = Object.keys(CONFIGS).indexOf(config);
  const started = process.hrtime.bigint();
  const ran = spawnSync(
    process.execPath,
    [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", `c${index}.config.ts`, target],
    {
      cwd: folder,
      env: { ...process.env, CI: "1" },
      encoding: "utf8",
    },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // Vitest prints a test's console output on stderr when not on a terminal.
  const output = `${ran.stdout}${ran.stderr}`;
  if (ran.status !== 0) throw new Error(`vitest ${target} with ${config} failed:\n${output.slice(-2000)}`);
  return { ms, output };
}

/** Milliseconds each file's `import` took in the worker, every file of `rounds` runs. */
function importTimes(folder: string, rounds: number): number[] {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const { output } = vitest(folder, "tooltrace() (hermetic)", "imports");
    const found = [...output.replace(/\x1b\[[0-9;]*m/g, "").matchAll(/IMPORT_MS (\d+(?:\.\d+)?)/g)].map((match) => Number(match[1]));
    if (found.length !== FILES)
      throw new Error(`imports: ${found.length} of ${FILES} files printed their import time:\n${output.slice(-1500)}`);
    times.push(...found);
  }
  return times;
}

export interface PerFileResult {
  readonly config: Config;
  /** Extra milliseconds of wall time per test file over Vitest alone, one value per paired run. */
  readonly perFile: readonly number[];
  /** Extra microseconds per test over Vitest alone, one value per paired run. */
  readonly perTest: readonly number[];
}

export interface PerFileReport {
  readonly results: readonly PerFileResult[];
  /** `import "tooltrace"` in a test file under the plugin, in ms per file. */
  readonly imports: readonly number[];
}

export async function perFile(rounds = Number(process.env.PER_FILE_ROUNDS ?? 6)): Promise<PerFileReport> {
  const folder = project();
  try {
    const configs = Object.keys(CONFIGS) as Config[];
    for (const config of configs) run(folder, config, "files");
    const results: PerFileResult[] = [];
    for (const config of configs.slice(1)) {
      const perFileCost: number[] = [];
      const perTestCost: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const order: [Config, Config] = round % 2 === 0 ? ["Vitest alone", config] : [config, "Vitest alone"];
        const files = order.map((each) => run(folder, each, "files"));
        const tests = order.map((each) => run(folder, each, "tests"));
        const ours = (values: number[]) => (round % 2 === 0 ? (values[1] as number) : (values[0] as number));
        const bare = (values: number[]) => (round % 2 === 0 ? (values[0] as number) : (values[1] as number));
        perFileCost.push((ours(files) - bare(files)) / FILES);
        perTestCost.push(((ours(tests) - bare(tests)) * 1000) / TESTS);
      }
      results.push({ config, perFile: perFileCost, perTest: perTestCost });
    }
    return { results, imports: importTimes(folder, Math.max(2, Math.ceil(rounds / 2))) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const spread = (values: readonly number[], unit: string, digits: number) =>
  `${median(values).toFixed(digits)} ${unit} (IQR ${quantile(values, 0.25).toFixed(digits)}–${quantile(values, 0.75).toFixed(digits)})`;

export function reportPerFile({ results, imports }: PerFileReport): string {
  return [
    `the plugin's cost over Vitest alone: ${FILES} files of one trivial test, and one file of ${TESTS} trivial tests, ABBA`,
    ...results.map(
      (result) => `  ${result.config.padEnd(28)} per file ${spread(result.perFile, "ms", 1)}; per test ${spread(result.perTest, "µs", 1)}`,
    ),
    "  aims: the default at most 10 ms per file and 20 µs per test; llm: true at most 30 ms per file",
    `  a test file's import "tooltrace" in the worker: ${spread(imports, "ms", 1)} (the CommonJS build the setup loaded)`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("per-file.js")) console.log(reportPerFile(await perFile()));
