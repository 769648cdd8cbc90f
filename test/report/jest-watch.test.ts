import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import type { ReportData } from "../../src/report/report-data.js";
import { readReport } from "../../src/report/read-report.js";
import { packageFile } from "../fixtures/versions.js";

// Real Jest in watch mode (CommonJS) on a user's project in a git repository, with `tooltrace/jest-reporter`
// and its JSON file: Jest makes its reporters anew for each run, and the report must still hold the whole suite;
// a JSON file Jest watches would start a rerun at each write.
const root = join(import.meta.dirname, "../..");
const temp = mkdtempSync(join(tmpdir(), "tooltrace-jest-watch-"));
const started: ChildProcess[] = [];

const evalFile = (answer: string) => `const { createSession } = require("tooltrace");
test("answers", async () => {
  const session = createSession({ tools: {}, agent: () => ${JSON.stringify(answer)} });
  expect(await session.send("hi")).toHaveMessageIncluding("yes");
});
`;

/** A project with two eval files under `jest <flag>`; what Jest printed so far, and a poll on it. */
function watchProject(name: string, flag: "--watch" | "--watchAll", ignoreJson: boolean) {
  const folder = join(temp, name);
  mkdirSync(join(folder, "node_modules"), { recursive: true });
  symlinkSync(root, join(folder, "node_modules", "tooltrace"), "dir");
  writeFileSync(join(folder, "package.json"), '{ "private": true }\n');
  writeFileSync(join(folder, ".gitignore"), "node_modules\ntooltrace-report\n");
  const ignore = ignoreJson ? 'watchPathIgnorePatterns: ["<rootDir>/tooltrace-turns.json"], ' : "";
  writeFileSync(
    join(folder, "jest.config.cjs"),
    `module.exports = { testMatch: ["**/*.test.cjs"], setupFilesAfterEnv: ["tooltrace/jest"], ${ignore}reporters: ["default", ["tooltrace/jest-reporter", { json: true }]], transform: {} };\n`,
  );
  writeFileSync(join(folder, "first.test.cjs"), evalFile("yes, first"));
  writeFileSync(join(folder, "second.test.cjs"), evalFile("yes, second"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: folder, stdio: "ignore" });
  git("init", "-q");
  const jest = spawn(process.execPath, [packageFile("jest", "bin", "jest.js"), flag], {
    cwd: folder,
    env: { ...process.env, CI: "", NODE_OPTIONS: "", GITHUB_ACTIONS: "" },
  });
  started.push(jest);
  const run = { folder, git, output: "" };
  jest.stdout?.on("data", (chunk: Buffer) => (run.output += chunk));
  jest.stderr?.on("data", (chunk: Buffer) => (run.output += chunk));
  const reports = () => run.output.split("[tooltrace] report:").length - 1;
  const until = (what: string, done: () => boolean) =>
    expect.poll(done, { timeout: 60_000, interval: 100, message: `${what}; Jest printed:\n${run.output.slice(-3000)}` }).toBe(true);
  return {
    ...run,
    get output() {
      return run.output;
    },
    reports,
    until,
  };
}

afterAll(() => {
  for (const jest of started) jest.kill("SIGKILL");
  rmSync(temp, { recursive: true, force: true });
});

test("under jest --watch the report keeps the files that did not rerun, marked from the earlier run", async () => {
  const project = watchProject("watch", "--watch", true);
  // Both files are new to git: the first run runs both.
  await project.until("the first run's report", () => project.reports() === 1);
  const report = join(project.folder, "tooltrace-report");
  expect(Object.fromEntries(readReport(report).tests.map((t) => [t.file, t.state]))).toEqual({
    "first.test.cjs": "passed",
    "second.test.cjs": "passed",
  });

  project.git("add", "-A");
  project.git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "evals");
  writeFileSync(join(project.folder, "first.test.cjs"), evalFile("no"));
  await project.until("the rerun's report", () => project.reports() === 2);

  const data = readReport(report);
  expect(data.tests.map((t) => [t.file, t.state, t.fromRun === undefined ? "this run" : "earlier"]).sort()).toEqual([
    ["first.test.cjs", "failed", "this run"],
    ["second.test.cjs", "passed", "earlier"],
  ]);
  expect(data.history?.length).toBe(2);
  expect(data.tests.find((t) => t.file === "first.test.cjs")?.sinceLast).toMatchObject({
    before: { state: "passed" },
    after: { state: "failed" },
  });
  // The JSON file too.
  const json = JSON.parse(readFileSync(join(project.folder, "tooltrace-turns.json"), "utf8")) as ReportData;
  expect(json.tests.map((t) => [t.file, t.fromRun === undefined]).sort()).toEqual([
    ["first.test.cjs", true],
    ["second.test.cjs", false],
  ]);
  expect(project.output).toContain("[tooltrace] report: tooltrace-report/index.html (2 tests, 1 failed)");
}, 120_000);

test("under jest --watchAll a JSON file Jest watches is not written (each write would rerun the suite), and why is said once", async () => {
  const project = watchProject("watch-all", "--watchAll", false);
  await project.until("the first run's report", () => project.reports() === 1);
  writeFileSync(join(project.folder, "first.test.cjs"), evalFile("yes, edited"));
  await project.until("the rerun's report", () => project.reports() === 2);
  expect(existsSync(join(project.folder, "tooltrace-turns.json"))).toBe(false);
  const said = project.output.split("the JSON report tooltrace-turns.json is not written in this watch session");
  expect(said.length - 1).toBe(1);
  expect(said[1]).toContain('watchPathIgnorePatterns: ["<rootDir>/tooltrace-turns.json"]');
}, 120_000);
