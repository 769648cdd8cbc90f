import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type ReportData, readReport } from "tooltrace/reporter";
import { compareReports } from "../../src/report/compare.js";
import { comparisonHtml } from "../../src/report/compare-html.js";
import { type SlowProvider, startSlowProvider } from "../fixtures/slow-provider.js";
import { packageFile } from "../fixtures/versions.js";
import { launchChromium } from "../fixtures/chromium.js";
import { pathToFileURL } from "node:url";

// The provider every run's trials ask, in a process of its own: each answer used 10 input and 5 output tokens.
let provider: SlowProvider;
beforeAll(async () => {
  provider = await startSlowProvider(20);
});
afterAll(() => provider.stop());

const config = join(import.meta.dirname, "../fixtures/live-shards-project/vitest.config.ts");
let summary: string | undefined;
let otlp: string | undefined;
const vitest = (cwd: string, ...args: string[]) =>
  promisify(execFile)(process.execPath, [packageFile("vitest", "vitest.mjs"), "run", "--config", config, ...args], {
    cwd,
    env: {
      ...process.env,
      CI: "1",
      PROVIDER_URL: provider.url,
      GITHUB_ACTIONS: summary ? "true" : "",
      GITHUB_STEP_SUMMARY: summary ?? "",
      FIXTURE_OTLP: otlp ?? "",
    },
  }).catch((error: { stdout: string; stderr: string }) => error);

/** What a report says of each test's trials and of the run's cost. */
function totals(report: ReportData) {
  const tests = report.tests.map((test) => ({
    name: test.fullName,
    state: test.state,
    trials: test.meta?.trials?.map(({ count, passed, ran }) => ({ count, passed, ran })),
    costUsd: test.meta?.cost?.costUsd,
  }));
  return { tests: tests.sort((a, b) => a.name.localeCompare(b.name)), cost: report.cost };
}

// Live trials over two CI machines: each runs a shard into a blob (Vitest's --shard), one merges them
// (--merge-reports): the trials, the costs and the run's total are the same as one machine running everything.
test("live trials sharded over two machines and merged: the same trials, costs and totals as one run", { timeout: 180_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), "tooltrace-live-shards-"));
  const blobs = join(work, "blobs");
  const shards = await Promise.all(
    [1, 2].map((shard) => vitest(work, `--shard=${shard}/2`, "--reporter=blob", `--outputFile=${join(blobs, `blob-${shard}.json`)}`)),
  );
  for (const shard of shards) expect(`${shard.stdout}${"stderr" in shard ? shard.stderr : ""}`).not.toMatch(/FAIL/);
  // The merging machine is a GitHub Actions job: it writes the job summary.
  summary = join(work, "summary.md");
  const merged = await vitest(work, "--merge-reports", blobs, "--reporter=tooltrace/reporter", "--reporter=tooltrace/json-reporter");
  expect(merged.stdout).toMatch(/\[tooltrace\] report: tooltrace-report\/index\.html \(2 tests, 0 failed, cost \$/);
  summary = undefined;
  const whole = mkdtempSync(join(tmpdir(), "tooltrace-live-unsharded-"));
  await vitest(whole, "--reporter=tooltrace/reporter");
  const one = totals(readReport(join(whole, "tooltrace-report")));
  // show --compare of the two runs: what each test's calls cost, in a column of its own.
  const page = comparisonHtml(compareReports(readReport(join(whole, "tooltrace-report")), readReport(join(work, "tooltrace-report"))));
  expect(page).toContain("<th>Cost</th>");
  expect(page).toContain("<td>$0.000018</td>");
  const two = totals(readReport(join(work, "tooltrace-report")));
  expect(two).toEqual(one);
  // 7 trials, one call each, at gpt-4o-mini's and gpt-4o's shipped prices.
  const mini = (10 * 0.15 + 5 * 0.6) / 1_000_000;
  const gpt4o = (10 * 2.5 + 5 * 10) / 1_000_000;
  expect(two.tests.map((test) => test.trials)).toEqual([[{ count: 4, passed: 4, ran: 4 }], [{ count: 3, passed: 3, ran: 3 }]]);
  expect(two.tests.map((test) => test.costUsd)).toEqual([expect.closeTo(4 * mini, 12), expect.closeTo(3 * gpt4o, 12)]);
  expect(two.cost?.costUsd).toBeCloseTo(4 * mini + 3 * gpt4o, 12);
  // The viewer: what the trials cost beside their pass rate, and each turn's cost beside its tokens.
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(work, "tooltrace-report", "index.html")).href);
    await page.locator("li.test", { hasText: "refunds: 4 live trials" }).click();
    expect(await page.locator("main .trials h2").textContent()).toBe("Trials: 4 of 4 passed (100%) \u00b7 $0.000018");
    expect(await page.locator("main .usage").first().textContent()).toMatch(/ tokens \u00b7 \d+ ms \u00b7 \$0\.0000045$/);
  } finally {
    await browser.close();
  }
  // The job summary: the run's cost, each file's, each trials' eval's.
  const said = readFileSync(join(work, "summary.md"), "utf8");
  expect(said).toContain("| tests | passed | failed | pass rate | sessions | tool calls | model calls | tokens | cost |");
  expect(said).toMatch(/\| 2 \| 2 \| 0 \| 100% \| 7 \| 0 \| 7 \| 105 \| \$0\.000243 \|/);
  expect(said).toMatch(/\| refunds: 4 live trials \| 4 \| 4 \| 100% \| – \| .* \| \$0\.000018 \|/);
  const json = JSON.parse(readFileSync(join(work, "tooltrace-turns.json"), "utf8")) as { cost?: { costUsd: number } };
  expect(json.cost?.costUsd).toBeCloseTo(4 * mini + 3 * gpt4o, 12);
});

/** The OpenTelemetry JS SDK 3 needs Node 22.15 (the matrix's Node 22 and 24 runs). */
const otelRuns = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 15);
})();

test.runIf(otelRuns)("the OpenTelemetry export says what each call, turn and test cost", { timeout: 120_000 }, async () => {
  const spans: { name: string; attributes?: { key: string; value: { doubleValue?: number } }[] }[] = [];
  const receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const sent = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: (typeof spans)[number][] }[] }[] };
      spans.push(...sent.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  otlp = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/v1/traces`;
  try {
    await vitest(mkdtempSync(join(tmpdir(), "tooltrace-live-otel-")), "weather");
  } finally {
    otlp = undefined;
    receiver.close();
  }
  const cost = (name: string) =>
    spans
      .filter((span) => span.name === name)
      .map((span) => span.attributes?.find((a) => a.key === "tooltrace.cost_usd")?.value.doubleValue);
  const call = (10 * 2.5 + 5 * 10) / 1_000_000;
  expect(cost("chat gpt-4o")).toEqual([call, call, call].map((usd) => expect.closeTo(usd, 12)));
  expect(cost("weather: 3 live trials")).toEqual([expect.closeTo(3 * call, 12)]);
});
