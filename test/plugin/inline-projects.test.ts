// Vitest 5 copies the options inline projects inherit (`projects: [{ extends: true }]`) before most plugins'
// config hooks run: such a project ran without tooltrace's setup file, so without its matchers, its guards
// and its per-test checks. The fixture declares two, one of them sharing its workers.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

test("inline projects that extend the root config get tooltrace's setup file", async () => {
  const config = join(import.meta.dirname, "../fixtures/inline-projects-project/vitest.config.ts");
  const result = await promisify(execFile)(process.execPath, [packageFile("vitest", "vitest.mjs"), "run", "--config", config], {
    env: { ...process.env, NO_COLOR: "1", CI: "1" },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const output = `${result.stdout}${result.stderr}`;
  expect(output).not.toContain("Invalid Chai property");
  expect(output).toMatch(/Tests\s+2 passed \(2\)/);
});
