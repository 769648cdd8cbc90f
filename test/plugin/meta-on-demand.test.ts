import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const config = join(import.meta.dirname, "../fixtures/meta-project/vitest.config.ts");

/** Runs the fixture with these reporters; its second test checks the first one's `meta` against EXPECT_META. */
async function run(reporters: string[], expected: string, env: Record<string, string> = {}): Promise<string> {
  const { GITHUB_ACTIONS: _ci, ...inherited } = process.env;
  const result = await promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", config, ...reporters.map((name) => `--reporter=${name}`)],
    { cwd: join(import.meta.dirname, "../fixtures/meta-project"), env: { ...inherited, CI: "1", EXPECT_META: expected, ...env } },
  ).catch((error: { stdout: string; stderr: string }) => error);
  return result.stdout + result.stderr;
}

// Building and redacting a test's sessions for reporters is most of what a test pays after its turns: a run
// whose reporters never read them skips it.
test("a test's sessions go on meta only when a reporter of the run reads them", { timeout: 60_000 }, async () => {
  const outcomes = await Promise.all([
    run(["default"], "absent"),
    run(["dot"], "absent"),
    run(["default", "junit"], "1 session"),
    run(["default", "json"], "1 session"),
    run(["default", "tooltrace/reporter"], "1 session"),
    run(["default"], "1 session", { FIXTURE_META: "true" }),
    run(["default", "json"], "absent", { FIXTURE_META: "false" }),
  ]);
  for (const output of outcomes) expect(stripVTControlCharacters(output)).toMatch(/Tests\s+2 passed/);
});
