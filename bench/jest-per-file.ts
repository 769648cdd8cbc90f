import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, quantile } from "./stats.js";
import { projectWithBuiltPackage } from "./built-package.js";

/**
 * What `tooltrace/jest` costs a test file under Jest: 20 files, run by Jest (one worker) in a project with the
 * built package installed, in CommonJS and in ESM mode, once with Jest alone and once per setting, alternating
 * (ABBA). "the setup" runs the same trivial test as Jest alone; "a session's llm" has each file create a session
 * whose `llm` answers one chat completion sent with `fetch` (the guard under the outer realm's `fetch`, the wire
 * and the pipeline, no SDK). The cost is the difference of paired runs, per file. On a busy machine that
 * difference drowns in noise, so each setting also runs once timed from inside: the setup's own time per file
 * (loading `tooltrace/jest` and what it installs), and the llm test's (loading tooltrace, the session, the turn).
 */
const root = join(import.meta.dirname, "..", "..");
const FILES = 20;

const SETTINGS = ["Jest alone", "the setup (hermetic)", "a session's llm"] as const;
type Setting = (typeof SETTINGS)[number];
type Mode = "cjs" | "esm";

const TRIVIAL = 'test("t", () => expect(1).toBe(1));\n';
const LLM_TEST = `test("llm", async () => {
  const started = performance.now();
  const session = createSession({
    llm: ["hello"],
    agent: async () => {
      const response = await fetch("https://api.openai.com/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
      });
      return (await response.json()).choices[0].message.content;
    },
  });
  expect((await session.send("hi")).text).toBe("hello");
  process.stdout.write(\`LLM_MS \${performance.now() - started + loaded}\\n\`);
});
`;

/** A setup file that loads tooltrace's and prints how long that took. */
const TIMED_SETUP = {
  cjs: 'const started = performance.now();\nrequire("tooltrace/jest");\nprocess.stdout.write("SETUP_MS " + (performance.now() - started) + "\\n");\n',
  esm: 'const started = performance.now();\nawait import("tooltrace/jest");\nprocess.stdout.write("SETUP_MS " + (performance.now() - started) + "\\n");\n',
};

function project(): string {
  const folder = projectWithBuiltPackage("jest");
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "jest-per-file", private: true }));
  for (const [index, setting] of SETTINGS.entries()) {
    for (const mode of ["cjs", "esm"] as const) {
      const dir = join(folder, `${mode}-${index}`);
      mkdirSync(dir);
      const head =
        setting !== "a session's llm"
          ? ""
          : mode === "cjs"
            ? 'const before = performance.now();\nconst { createSession } = require("tooltrace");\nconst loaded = performance.now() - before;\n'
            : 'const before = performance.now();\nconst { createSession } = await import("tooltrace");\nconst loaded = performance.now() - before;\n';
      for (let i = 0; i < FILES; i++)
        writeFileSync(join(dir, `t${i}.test.${mode === "cjs" ? "cjs" : "mjs"}`), head + (head === "" ? TRIVIAL : LLM_TEST));
      const timed = join(folder, `timed-setup.${mode === "cjs" ? "cjs" : "mjs"}`);
      writeFileSync(timed, TIMED_SETUP[mode]);
      for (const [suffix, file] of [
        ["", "tooltrace/jest"],
        ["-timed", timed],
      ] as const) {
        const setup = setting === "Jest alone" ? "" : `setupFilesAfterEnv: [${JSON.stringify(file)}], `;
        writeFileSync(
          join(folder, `${mode}-${index}${suffix}.config.cjs`),
          `module.exports = { rootDir: ${JSON.stringify(dir)}, testMatch: ["**/*.test.${mode === "cjs" ? "cjs" : "mjs"}"], ${setup}transform: {}, maxWorkers: 1, cache: false };\n`,
        );
      }
    }
  }
  return folder;
}

function run(folder: string, setting: Setting, mode: Mode): number {
  return jest(folder, setting, mode, "").ms;
}

function jest(folder: string, setting: Setting, mode: Mode, suffix: "" | "-timed"): { ms: number; output: string } {
  const flags = mode === "esm" ? ["--experimental-vm-modules", "--no-warnings"] : [];
  const config = `${mode}-${SETTINGS.indexOf(setting)}${suffix}.config.cjs`;
  const started = process.hrtime.bigint();
  const ran = spawnSync(process.execPath, [...flags, join(root, "node_modules", "jest", "bin", "jest.js"), "--config", config, "--ci"], {
    cwd: folder,
    env: { ...process.env, CI: "1", NODE_OPTIONS: "" },
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const output = `${ran.stdout}${ran.stderr}`;
  if (ran.status !== 0) throw new Error(`jest (${mode}) with ${setting} failed:\n${output.slice(-2000)}`);
  return { ms, output };
}

/** The times the files printed (`SETUP_MS`, `LLM_MS`), every file of `rounds` timed runs. */
function timesInside(folder: string, setting: Setting, mode: Mode, label: string, rounds: number): number[] {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const { output } = jest(folder, setting, mode, "-timed");
    times.push(...[...output.matchAll(new RegExp(`${label} (\\d+(?:\\.\\d+)?)`, "g"))].map((match) => Number(match[1])));
  }
  return times;
}

export interface JestPerFileResult {
  readonly setting: Setting;
  readonly mode: Mode;
  /** Extra milliseconds of wall time per test file over Jest alone, one value per paired run. */
  readonly perFile: readonly number[];
  /** Milliseconds the setup took in each file, timed inside; and the llm test's (for that setting). */
  readonly setup: readonly number[];
  readonly llm: readonly number[];
}

export function jestPerFile(rounds = Number(process.env.PER_FILE_ROUNDS ?? 6)): JestPerFileResult[] {
  const folder = project();
  try {
    const results: JestPerFileResult[] = [];
    for (const mode of ["cjs", "esm"] as const) {
      for (const setting of SETTINGS) run(folder, setting, mode);
      for (const setting of SETTINGS.slice(1)) {
        const perFile: number[] = [];
        for (let round = 0; round < rounds; round++) {
          const order: Setting[] = round % 2 === 0 ? ["Jest alone", setting] : [setting, "Jest alone"];
          const [first, second] = order.map((each) => run(folder, each, mode)) as [number, number];
          perFile.push((round % 2 === 0 ? second - first : first - second) / FILES);
        }
        const setup = timesInside(folder, setting, mode, "SETUP_MS", 2);
        const llm = setting === "a session's llm" ? timesInside(folder, setting, mode, "LLM_MS", 2) : [];
        results.push({ setting, mode, perFile, setup, llm });
      }
    }
    return results;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const spread = (values: readonly number[]) =>
  `${median(values).toFixed(1)} ms (IQR ${quantile(values, 0.25).toFixed(1)}–${quantile(values, 0.75).toFixed(1)})`;

export function reportJestPerFile(results: readonly JestPerFileResult[]): string {
  return [
    `tooltrace/jest's cost over Jest alone: ${FILES} files, one worker, ABBA`,
    ...results.map(
      (result) =>
        `  ${result.mode} ${result.setting.padEnd(22)} per file ${spread(result.perFile)}; timed inside: the setup ${spread(result.setup)}` +
        (result.llm.length > 0 ? `, the llm test (load, session, turn) ${spread(result.llm)}` : ""),
    ),
    "  aims: the setup at most 10 ms per file; a session's llm at most 30 ms per file",
  ].join("\n");
}

if (process.argv[1]?.endsWith("jest-per-file.js")) console.log(reportJestPerFile(jestPerFile()));
