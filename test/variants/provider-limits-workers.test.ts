import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ReportData } from "../../src/report/report-data.js";
import { type SlowProvider, startRateLimitedProvider } from "../fixtures/slow-provider.js";
import { packageFile } from "../fixtures/versions.js";

const project = join(import.meta.dirname, "../fixtures/limits-project");

// A provider on loopback, in a process of its own, answering in 300 ms: 5 requests at once, the sixth answered
// with 429 and `Retry-After: 0.2`.
let provider: SlowProvider;
beforeAll(async () => {
  provider = await startRateLimitedProvider(300, 5, 429);
});
afterAll(() => provider.stop());

/** Runs the fixture's two test files in two workers of a child Vitest; its output, and the JSON report. */
async function run(env: Record<string, string> = {}): Promise<{ output: string; report: ReportData }> {
  const out = mkdtempSync(join(tmpdir(), "tooltrace-limits-"));
  const { GITHUB_ACTIONS: _ci, ...inherited } = process.env;
  const result = await promisify(execFile)(process.execPath, [packageFile("vitest", "vitest.mjs"), "run"], {
    cwd: project,
    env: { ...inherited, CI: "1", PROVIDER_URL: provider.url, FIXTURE_OUT: out, ...env },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const report = JSON.parse(readFileSync(join(out, "turns.json"), "utf8")) as ReportData;
  return { output: stripVTControlCharacters(result.stdout + result.stderr), report };
}

test("one limit across two Vitest workers: the provider never refuses, the waits are in the summary", { timeout: 120_000 }, async () => {
  await provider.reset();
  const { output, report } = await run();
  expect(output).toMatch(/Tests\s+2 passed/);
  expect(await provider.stats()).toMatchObject({ max: 5, answered: 30, rejected: 0 });
  // The limiter's line: the limit, the most at once, and the requests that queued (the files ran together).
  const line = /openai\/gpt-4o-mini: at most 5 at once \(peak (\d+)\), 30 requests, (\d+) queued/.exec(output);
  expect(line?.[1]).toBe("5");
  expect(Number(line?.[2])).toBeGreaterThan(0);
  expect(report.providerLimits?.["openai/gpt-4o-mini"]).toMatchObject({ maxInFlight: 5, peak: 5, granted: 30, rateLimited: 0 });
  expect(report.providerWaits?.rateLimited).toBe(0);
  expect(report.providerWaits?.calls).toBeGreaterThan(0);
  // The report's line says what the calls waited, as the provider's.
  expect(output).toMatch(/report: .*; \d+ calls? waited on the provider: queued \d+\.\d s for the provider limit\)/);
});

test("without maxInFlight the same run overflows the provider (the files ran at once), and its 429s are waited out", {
  timeout: 120_000,
}, async () => {
  await provider.reset();
  const { output, report } = await run({ FIXTURE_NO_LIMIT: "1" });
  expect(output).toMatch(/Tests\s+2 passed/);
  const { rejected } = await provider.stats();
  expect(rejected).toBeGreaterThan(0);
  expect(report.providerWaits?.rateLimited).toBe(rejected);
  expect(report.providerLimits).toBeUndefined();
  expect(output).toMatch(new RegExp(`${rejected} rate limits? waited out`));
});
