import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readReport } from "../../src/report/read-report.js";
import type { ReportData } from "../../src/report/report-data.js";
import { launchChromium } from "../fixtures/chromium.js";
import { runJestIn } from "../fixtures/jest-run.js";
import { type SlowProvider, startSlowProvider } from "../fixtures/slow-provider.js";

// Real Jest 30 (ESM mode) on a user's project of four files, run as CI runs it in shards (--shard=1/2 and 2/2,
// each in a folder of its own, with tooltrace/jest-reporter), then as one run; `tooltrace merge` makes one
// report of the shards'. The evals call a provider on loopback, in a process of its own, whose answers cost.
const config = join(import.meta.dirname, "../fixtures/jest-shards-project/jest.config.mjs");
const bin = join(import.meta.dirname, "../../dist/bin.js");
const temp = mkdtempSync(join(tmpdir(), "tooltrace-jest-shards-"));
const folders = { shard1: join(temp, "shard-1"), shard2: join(temp, "shard-2"), whole: join(temp, "whole"), merge: join(temp, "merge") };
const report = (folder: string) => join(folder, "tooltrace-report");
let provider: SlowProvider;
let merged = { stdout: "", stderr: "" };
const names = (data: ReportData) =>
  data.tests
    .filter((t) => !t.fileErrors)
    .map((t) => `${t.file} ${t.fullName}: ${t.state}`)
    .sort();

beforeAll(async () => {
  provider = await startSlowProvider(20);
  const jest = (cwd: string, args: readonly string[]) =>
    runJestIn(cwd, config, [`--cacheDirectory=${join(cwd, "cache")}`, ...args], {
      PROVIDER_URL: provider.url,
      NODE_OPTIONS: "--experimental-vm-modules --no-warnings",
      GITHUB_ACTIONS: "",
    });
  for (const folder of Object.values(folders)) mkdirSync(folder, { recursive: true });
  const runs = await Promise.all([jest(folders.shard1, ["--shard=1/2"]), jest(folders.shard2, ["--shard=2/2"])]);
  // The shard that ran the failing eval failed; the other passed.
  expect(runs.map((run) => run.code).sort(), runs.map((run) => `${run.stdout}\n${run.stderr}`).join("\n")).toEqual([0, 1]);
  await jest(folders.whole, []);
  merged = await promisify(execFile)(
    process.execPath,
    [
      bin,
      "merge",
      report(folders.shard1),
      join(folders.shard2, "tooltrace-turns.json"),
      "--out=merged-report",
      "--json",
      "--junit=merged.xml",
    ],
    {
      cwd: folders.merge,
      env: { ...process.env, CI: "1", GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: join(folders.merge, "summary.md") },
    },
  );
}, 240_000);
afterAll(() => provider?.stop());

test("tooltrace merge makes one report of Jest's shards: the unsharded run's tests and states, the costs summed", () => {
  const shards = [readReport(report(folders.shard1)), readReport(report(folders.shard2))];
  const whole = readReport(report(folders.whole));
  const data = readReport(join(folders.merge, "merged-report"));
  // Each shard ran part of the files; together, every test of the run, as one run has them.
  for (const shard of shards) expect(shard.tests.length).toBeGreaterThan(0);
  expect(names(data)).toEqual(names(whole));
  expect(names(data)).toEqual([...names(shards[0] as ReportData), ...names(shards[1] as ReportData)].sort());
  expect(names(data)).toHaveLength(7);
  expect(data.tests.filter((t) => t.state === "failed").map((t) => t.fullName)).toEqual(["promises a callback (it does not)"]);
  expect(data.tests.find((t) => t.fullName === "billing > answers about a refund")?.meta?.sessions[0]?.turns[0]?.text).toBe(
    "answer to refund 7",
  );
  // Five evals called the provider: their costs, summed over the shards, are the whole run's.
  const usd = (report: ReportData) => report.cost?.costUsd ?? 0;
  expect(usd(whole)).toBeGreaterThan(0);
  expect(usd(data)).toBeCloseTo(usd(shards[0] as ReportData) + usd(shards[1] as ReportData), 12);
  expect(usd(data)).toBeCloseTo(usd(whole), 12);
  expect(merged.stdout).toContain(`[tooltrace] report: merged-report/index.html (7 tests, 1 failed, cost $`);
  expect(merged.stdout).toContain("open it with: npx tooltrace show merged-report");
});

test("the merge writes the JSON and JUnit files and the job summary, as the reporter does", () => {
  const json = readReport(join(folders.merge, "tooltrace-turns.json"));
  expect(names(json)).toEqual(names(readReport(report(folders.whole))));
  const junit = readFileSync(join(folders.merge, "merged.xml"), "utf8");
  expect(junit.match(/<testcase /g)?.length).toBe(7);
  expect(junit.match(/<failure /g)?.length).toBe(1);
  expect(junit).toContain("user: call me back");
  const summary = readFileSync(join(folders.merge, "summary.md"), "utf8");
  expect(summary).toContain("## tooltrace");
  expect(summary).toContain("| 7 | 5 | 1 |");
});

test("the same shard twice is refused, naming the test and both reports", async () => {
  const twice = await promisify(execFile)(process.execPath, [bin, "merge", report(folders.shard1), report(folders.shard1)], {
    cwd: folders.merge,
    env: { ...process.env, CI: "1" },
  }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => error,
  );
  expect(twice.code).toBe(1);
  expect(twice.stderr).toContain(`is in both ${report(folders.shard1)} and ${report(folders.shard1)}`);
  expect(twice.stderr).toContain("--shard=i/n");
});

test("the merged page opens in headless Chromium with the tests of both shards", async () => {
  const browser: Browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const url = pathToFileURL(join(folders.merge, "merged-report", "index.html")).href;
    page.on("request", (request) => {
      if (request.url() !== url) throw new Error(`the viewer fetched ${request.url()}`);
    });
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]");
    const shown = await page.locator("li.test").allTextContents();
    for (const name of ["answers about an invoice", "answers a support question", "names the plans", "greets without the model"])
      expect(shown).toEqual(expect.arrayContaining([expect.stringContaining(name)]));
    await page.locator("li.test.failed", { hasText: "promises a callback" }).click();
    await expect.poll(() => page.locator("main .bubble.user").textContent()).toBe("call me back");
    expect(await page.locator("main .bubble.agent").textContent()).toBe("answer to call me back");
  } finally {
    await browser.close();
  }
}, 60_000);
