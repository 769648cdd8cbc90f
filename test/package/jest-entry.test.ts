import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

interface JestReport {
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

// Real Jest (ESM through --experimental-vm-modules) on the built package, with `tooltrace/jest` as its setup file.
test("the Jest entry registers the matchers, restores tools and fails strict violations", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "tooltrace-jest-")), "report.json");
  const config = join(import.meta.dirname, "../fixtures/jest-project/jest.config.mjs");
  await promisify(execFile)(
    process.execPath,
    [
      "--experimental-vm-modules",
      "--no-warnings",
      packageFile("jest", "bin", "jest.js"),
      "--config",
      config,
      "--json",
      `--outputFile=${out}`,
      "--ci",
    ],
    {
      env: { ...process.env, CI: "1" },
    },
  ).catch(() => undefined);
  const report = JSON.parse(readFileSync(out, "utf8")) as JestReport;
  const results = new Map(report.testResults.flatMap((file) => file.assertionResults).map((result) => [result.title, result]));
  expect(results.get("matchers are registered and stubs answer")?.status).toBe("passed");
  expect(results.get("tools were restored after the previous test")?.status).toBe("passed");
  const strict = results.get("a strict violation fails the test after it ends");
  expect(strict?.status).toBe("failed");
  expect(strict?.failureMessages.join("\n")).toContain("strict mode: no stub rule matched list_tasks({})");
}, 60_000);
