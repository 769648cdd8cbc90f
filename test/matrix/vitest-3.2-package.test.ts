import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";

interface JsonReport {
  numFailedTests: number;
  testResults: {
    assertionResults: {
      title: string;
      status: string;
      failureMessages: string[];
      meta: { tooltrace?: { sessions: { name: string }[] } };
    }[];
  }[];
}

const project = join(import.meta.dirname, "../compat/vitest-3.2");
const root = join(import.meta.dirname, "../..");

// Vitest 3.2 is the oldest Vitest in the peer range and has no `aroundEach`. The built package is copied
// into the compat project's node_modules, as an install would put it, and run by that project's Vitest.
test("Vitest 3.2: 50 concurrent tests on one tools record each keep their own scope, stubs and task.meta", async () => {
  expect(
    existsSync(join(project, "node_modules", "vitest")),
    "test/compat/vitest-3.2 is not installed: run `npm install` at the root",
  ).toBe(true);
  const installed = join(project, "node_modules", "tooltrace");
  rmSync(installed, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  cpSync(join(root, "package.json"), join(installed, "package.json"));
  for (const folder of ["dist", "src", "matchers"]) cpSync(join(root, folder), join(installed, folder), { recursive: true });

  const out = join(mkdtempSync(join(tmpdir(), "tooltrace-vitest32-")), "report.json");
  await promisify(execFile)(
    process.execPath,
    [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--reporter=json", `--outputFile=${out}`],
    { cwd: project, env: { ...process.env, CI: "1" } },
  ).catch(() => undefined);
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(out, "utf8")) as JsonReport;
  } finally {
    rmSync(dirname(out), { recursive: true, force: true });
  }
  const results = report.testResults.flatMap((file) => file.assertionResults);
  expect(
    results.filter((result) => result.status !== "passed").map((result) => `${result.title}: ${result.failureMessages.join(" ")}`),
  ).toEqual([]);
  expect(results).toHaveLength(51);
  for (const result of results.filter((item) => item.title.startsWith("concurrent"))) {
    const name = /concurrent (t\d+)/.exec(result.title)?.[1];
    expect(result.meta.tooltrace?.sessions.map((session) => session.name)).toEqual([name]);
  }
}, 60_000);
