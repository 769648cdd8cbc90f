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

// Jest in CommonJS, its default, without --experimental-vm-modules: before, "Must use import to load ES Module".
test('under Jest in CommonJS, without flags, the setup entry and require("tooltrace") load tooltrace\'s CommonJS build', async () => {
  const out = join(mkdtempSync(join(tmpdir(), "tooltrace-jest-cjs-")), "report.json");
  const config = join(import.meta.dirname, "../fixtures/jest-cjs-project/jest.config.cjs");
  await promisify(execFile)(
    process.execPath,
    [packageFile("jest", "bin", "jest.js"), "--config", config, "--json", `--outputFile=${out}`, "--ci"],
    {
      env: { ...process.env, CI: "1", NODE_OPTIONS: "" },
    },
  ).catch(() => undefined);
  const report = JSON.parse(readFileSync(out, "utf8")) as JestReport;
  const results = new Map(report.testResults.flatMap((file) => file.assertionResults).map((result) => [result.title, result]));
  expect(results.get("matchers are registered and stubs answer")?.status).toBe("passed");
  expect(results.get("tools were restored after the previous test")?.status).toBe("passed");
  const unused = results.get("an unused rule fails the test after it ends (the Jest entry's default policy)");
  expect(unused?.status).toBe("failed");
  expect(unused?.failureMessages.join("\n")).toContain("stub rules never used: never");
}, 60_000);
