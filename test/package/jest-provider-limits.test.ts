import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readReport } from "../../src/report/read-report.js";
import { runJest, runJestIn } from "../fixtures/jest-run.js";
import { type SlowProvider, startRateLimitedProvider, startSlowProvider } from "../fixtures/slow-provider.js";

// A provider on loopback, in a process of its own, answering in 300 ms: 5 requests at once, 429 past them.
let provider: SlowProvider;
// One that refuses nothing and counts the most requests it had at once, from whichever process.
let counting: SlowProvider;
beforeAll(async () => {
  [provider, counting] = await Promise.all([startRateLimitedProvider(300, 5, 429), startSlowProvider(500)]);
});
afterAll(() => {
  provider.stop();
  counting.stop();
});

test("under Jest, globals.tooltrace.providers holds trials over the OpenAI SDK to the limit", { timeout: 120_000 }, async () => {
  const config = join(import.meta.dirname, "../fixtures/jest-limits-project/jest.config.mjs");
  // In band (one file), the reporter's limiter in the same process as the test: Jest still exits when it ends.
  const report = join(mkdtempSync(join(tmpdir(), "tooltrace-jest-limits-")), "report");
  const results = await runJest(config, { esm: true, env: { PROVIDER_URL: provider.url, REPORT_DIR: report } });
  const result = results.get("trials held to the run's limit");
  expect(result?.failureMessages.join("\n")).toBe("");
  expect(result?.status).toBe("passed");
  expect(await provider.stats()).toMatchObject({ max: 5, answered: 10, rejected: 0 });
  expect(readReport(report).providerLimits?.["openai/gpt-4o-mini"]).toMatchObject({ maxInFlight: 5, peak: 5, granted: 10 });
});

test("with tooltrace/jest-reporter, the limit holds across Jest's workers, and the run prints what it held", {
  timeout: 180_000,
}, async () => {
  // Three files of 6 trials at once, in three workers, under `maxInFlight: 2`: the reporter hosts the limit.
  const cwd = mkdtempSync(join(tmpdir(), "tooltrace-jest-limits-"));
  const config = join(import.meta.dirname, "../fixtures/jest-limits-workers-project/jest.config.mjs");
  await counting.reset();
  const ran = await runJestIn(cwd, config, [`--cacheDirectory=${join(cwd, "cache")}`], {
    PROVIDER_URL: counting.url,
    NODE_OPTIONS: "--experimental-vm-modules --no-warnings",
  });
  const log = `${ran.stdout}\n${ran.stderr}`;
  expect(ran.code, log).toBe(0);
  expect(await counting.stats()).toMatchObject({ max: 2, answered: 18 });
  expect(ran.stdout).toContain("[tooltrace] provider limits:\n  openai/gpt-4o-mini: at most 2 at once (peak 2), 18 requests, ");
  expect(readReport(join(cwd, "tooltrace-report")).providerLimits?.["openai/gpt-4o-mini"]).toMatchObject({
    maxInFlight: 2,
    peak: 2,
    granted: 18,
  });
});
