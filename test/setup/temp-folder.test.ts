import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { expect, test } from "vitest";

// The suite's global setup gives the run a temporary folder of its own and removes it at the end.
test("tests and the processes they start write their temporary files in the run's own folder", () => {
  expect(basename(tmpdir())).toMatch(/^tooltrace-tests-/);
  // One folder for the run, not one inside another per project of the config.
  expect(basename(dirname(tmpdir()))).not.toMatch(/^tooltrace-tests-/);
  const child = execFileSync(process.execPath, ["-e", "process.stdout.write(require('node:os').tmpdir())"], { encoding: "utf8" });
  expect(child).toBe(tmpdir());
});
