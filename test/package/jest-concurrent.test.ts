import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { readReport } from "../../src/report/read-report.js";
import { runJestIn } from "../fixtures/jest-run.js";

// Real Jest 30 (CommonJS) on evals written as `test.concurrent`, which Jest runs outside its
// beforeEach/afterEach: before, their sessions were never checked (an unused rule passed silently) nor reported.
const config = join(import.meta.dirname, "../fixtures/jest-concurrent-project/jest.config.cjs");
const cwd = mkdtempSync(join(tmpdir(), "tooltrace-jest-concurrent-"));
let ran: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  ran = await runJestIn(cwd, config, []);
}, 120_000);

test("each concurrent test's sessions are its own, checked when it ends: an unused rule fails that test alone", () => {
  const log = `${ran.stdout}\n${ran.stderr}`;
  expect(ran.code, log).toBe(1);
  expect(log).toContain("✕ a rule it never used fails it");
  expect(log).toContain("✓ its neighbour uses every rule and passes");
  expect(log).toContain("✓ each row c has its own session");
  expect(log).toContain("✓ each row d has its own session");
  // Before, "invalid regular expression ...: You are trying to `require` a file outside of the scope of the test code".
  expect(log).toContain("✓ a URL and a pattern first used after another concurrent test ended");
  expect(log).toMatch(/stub rules? never used: never-a/);
  expect(log).not.toContain("answer-b");
  // A test that throws keeps its own error; its scope is still closed.
  expect(log).toContain("✕ its own error is the one reported, not its unused rule");
  expect(log).toContain("the eval's own failure");
  expect(log).not.toMatch(/never used: never-e/);
});

test("the reporter's page holds each concurrent test with its session, in a describe block too", () => {
  const data = readReport(join(cwd, "tooltrace-report"));
  const sessions = Object.fromEntries(data.tests.map((t) => [t.fullName, t.meta?.sessions.length ?? 0]));
  expect(sessions).toEqual({
    "concurrent evals > a rule it never used fails it": 1,
    "concurrent evals > its neighbour uses every rule and passes": 1,
    "concurrent evals > its own error is the one reported, not its unused rule": 1,
    "each row c has its own session": 0,
    "each row d has its own session": 0,
    "a URL and a pattern first used after another concurrent test ended": 1,
  });
});
