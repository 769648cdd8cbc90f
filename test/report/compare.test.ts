import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { compareCommand } from "../../src/report/compare-command.js";
import { readReport } from "../../src/report/read-report.js";
import { packageFile } from "../fixtures/versions.js";

const config = join(import.meta.dirname, "../fixtures/compare-project/vitest.config.ts");
const bin = join(import.meta.dirname, "../../dist/bin.js");
const run = promisify(execFile);

/** One real run of the compare fixture with the tooltrace reporter, in a folder of its own. */
async function runFixture(env: Record<string, string>): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), "tooltrace-compare-run-"));
  const vitest = [packageFile("vitest", "vitest.mjs"), "run", "--config", config, "--reporter=tooltrace/reporter"];
  // Vitest's own JSON reporter too: the tests' metadata in it is a run to compare as well.
  await run(process.execPath, [...vitest, "--reporter=json", `--outputFile.json=${join(cwd, "vitest.json")}`], {
    cwd,
    env: { ...process.env, CI: "1", ...env },
  }).catch((error: { stdout: string }) => error);
  return join(cwd, "tooltrace-report");
}

let baseline: string;
let current: string;
let summary: string;
beforeAll(async () => {
  baseline = await runFixture({});
  summary = join(mkdtempSync(join(tmpdir(), "tooltrace-compare-summary-")), "summary.md");
  writeFileSync(summary, "");
  // The second run has one stub changed, and runs as on GitHub Actions with the baseline named.
  current = await runFixture({
    FIXTURE_FLIGHTS: "changed",
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: summary,
    TOOLTRACE_BASELINE: baseline,
  });
}, 120_000);

describe("two real runs compared, one stub changed between them", () => {
  test("per test: the status change, the pass rate's change with its interval, the path's diff, tokens", () => {
    const { comparison, regressed } = compareCommand(baseline, current, { markdown: true });
    const byName = (name: string) => comparison.tests.find((test) => test.name === name);
    expect(byName("books the cheapest flight")?.status).toBe("broken");
    expect(byName("answers without tools")).toMatchObject({ status: "passing", trajectory: [] });
    const cheapest = byName("books the cheapest flight");
    expect(cheapest?.trajectory[0]?.diff).toContain("F2");
    expect(cheapest?.baseline?.tokens).toBeGreaterThan(0);
    expect(cheapest?.current?.tokens).not.toBe(cheapest?.baseline?.tokens);
    const rate = byName("books on most trials");
    expect(rate?.status).toBe("passing");
    expect(rate?.baseline?.trials?.passed).toBeGreaterThan(rate?.current?.trials?.passed ?? 20);
    expect(rate?.passRate).toMatchObject({ significant: true });
    expect(rate?.passRate?.high).toBeLessThan(0);
    expect(regressed).toBe(true);
  });

  test("as markdown for a pull request: the changed tests only, with the interval and the diff", () => {
    const { output } = compareCommand(baseline, current, { markdown: true });
    expect(output).toContain("1 broken");
    expect(output).toMatch(/\| flights\.agent-spec\.ts › books the cheapest flight \| ❌ broken \|/);
    // The judge's score before and after, in a column of its own.
    expect(output).toContain("| Test | Status | Pass rate | Tokens | Latency | Scores |");
    expect(output).toMatch(/books the cheapest flight \| ❌ broken \|.*\| cheapest 1\.00 → 0\.50 \|/);
    expect(output).toMatch(/books on most trials \| passing \| \d+% → \d+% \(-\d+(\.\d)?pt, 95% CI -\d+(\.\d)? to -\d+(\.\d)?pt\)/);
    expect(output).not.toContain("answers without tools |");
    expect(output).toContain("```diff");
  });

  test("the CLI prints the markdown, and --fail-on-regression exits 1 on a broken test", async () => {
    const printed = await run(process.execPath, [bin, "show", "--compare", baseline, current, "--markdown"]);
    expect(printed.stdout).toContain("## tooltrace: this run against the baseline");
    const gate = await run(process.execPath, [bin, "show", "--compare", baseline, current, "--markdown", "--fail-on-regression"]).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect("code" in gate && gate.code).toBe(1);
    const same = await run(process.execPath, [bin, "show", "--compare", baseline, baseline, "--markdown", "--fail-on-regression"]);
    expect(same.stdout).toContain("No test changed status, pass rate or path.");
  });

  test("a run's page holds its data once: the report reads back from index.html alone", () => {
    expect(existsSync(join(current, "report.json"))).toBe(false);
    expect(readReport(current).tests.length).toBe(3);
  });

  test("the job summary on GitHub Actions includes the comparison with the baseline", () => {
    const text = readFileSync(summary, "utf8");
    expect(text).toContain("this run against the baseline");
    expect(text).toContain("books the cheapest flight");
  });

  test("Vitest's own JSON output compares the same as the report folder", () => {
    const fromJson = compareCommand(join(baseline, "../vitest.json"), join(current, "../vitest.json"), { markdown: true });
    const statuses = (result: typeof fromJson) =>
      result.comparison.tests.map((test) => [test.name, test.status, test.trajectory.length > 0]);
    expect(statuses(fromJson)).toEqual(statuses(compareCommand(baseline, current, { markdown: true })));
  });

  test("Vitest's blob output is refused with the command that turns it into a report", () => {
    const blobs = mkdtempSync(join(tmpdir(), "tooltrace-blobs-"));
    mkdirSync(join(blobs, ".vitest-reports"));
    expect(() => readReport(join(blobs, ".vitest-reports"))).toThrow(/--merge-reports=.*--reporter=tooltrace\/reporter/);
  });

  test("the comparison page in a real browser: changed tests first, intervals drawn, the diff shown", async () => {
    const browser = await launchChromium();
    try {
      const { output } = compareCommand(baseline, current);
      const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
      page.on("request", (request) => {
        if (!request.url().startsWith("file:")) throw new Error(`the page fetched ${request.url()}`);
      });
      await page.goto(pathToFileURL(output).href);
      const statuses = await page.locator("tr.test").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")));
      expect(statuses[0]).toBe("broken");
      expect(statuses.at(-1)).toBe("passing");
      expect(await page.locator("tr.broken pre.diff .chg").count()).toBeGreaterThan(0);
      expect(await page.locator("th").allTextContents()).toContain("Scores");
      expect(await page.locator("tr.broken td").nth(5).textContent()).toBe("cheapest 1.00 → 0.50");
      expect(await page.locator("tr.test .rate.current .ci").count()).toBe(1);
      expect(await page.locator("tr.test", { hasText: "books on most trials" }).locator("pre.diff").count()).toBe(3);
      expect(await page.locator("tr.test", { hasText: "books on most trials" }).textContent()).toMatch(
        /and \d+ more sessions whose path changed/,
      );
      expect(await page.locator(".rtext.significant").textContent()).toMatch(/^\d+\/20 → \d+\/20: -\d/);
      // Each row links to the test in either run's own viewer.
      const href = await page.locator("tr.broken a", { hasText: "current" }).getAttribute("href");
      expect(href).toMatch(/index\.html#test=/);
      const shot =
        process.env.TOOLTRACE_SCREENSHOT === "1" ? join(import.meta.dirname, "../../docs") : mkdtempSync(join(tmpdir(), "tooltrace-shot-"));
      await page.screenshot({ path: join(shot, "compare.png") });
    } finally {
      await browser.close();
    }
  });
});
