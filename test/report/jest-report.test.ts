import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readReport } from "../../src/report/read-report.js";
import { launchChromium } from "../fixtures/chromium.js";
import { runJestIn } from "../fixtures/jest-run.js";

// Real Jest 30 (CommonJS, no flags) on a user's project with `tooltrace/jest-reporter`: an AI SDK agent on the
// scripted model, one eval passing and one failing, and a second file so Jest may use its workers. Two runs:
// the first in Jest's workers on GitHub Actions, the second in band with the agent fixed.
const config = join(import.meta.dirname, "../fixtures/jest-report-project/jest.config.cjs");
const bin = join(import.meta.dirname, "../../dist/bin.js");
const planted = `leak${Math.random().toString(36).slice(2, 10)}Q`;
const temp = mkdtempSync(join(tmpdir(), "tooltrace-jest-report-"));
const summary = join(temp, "summary.md");
/** The runs' temporary folder: the reporter's run folder is made, and removed, in it. */
const runTemp = mkdtempSync(join(temp, "tmp-"));
const env = { PLANTED_SECRET: planted, STARTED_BY: String(process.pid), TMPDIR: runTemp, GITHUB_ACTIONS: "", GITHUB_STEP_SUMMARY: "" };
const first = { cwd: mkdtempSync(join(temp, "first-")), code: 0, log: "" };
const second = { cwd: mkdtempSync(join(temp, "second-")), code: 0, log: "" };
const report = (run: { cwd: string }) => join(run.cwd, "tooltrace-report");

beforeAll(async () => {
  // No timings cached and two workers allowed: Jest runs the two files in its workers.
  const inWorkers = ["--maxWorkers=2", `--cacheDirectory=${join(temp, "cache-first")}`];
  const ran = await runJestIn(first.cwd, config, inWorkers, { ...env, GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary });
  Object.assign(first, { code: ran.code, log: `${ran.stdout}\n${ran.stderr}` });
  const again = await runJestIn(second.cwd, config, ["--runInBand"], { ...env, ROUND: "2" });
  Object.assign(second, { code: again.code, log: `${again.stdout}\n${again.stderr}` });
}, 120_000);

const CANCEL = "account agent > cancels the account when asked";
const PLAN = "account agent > answers with the plan its tool returned";
const WHERE = "says whether it ran in a Jest worker";

describe("tooltrace/jest-reporter under real Jest 30", () => {
  test("each run's viewer page holds every test with its sessions, from Jest's workers and in band (readReport)", () => {
    expect(first.code, first.log).toBe(1);
    expect(second.code, second.log).toBe(0);
    expect(first.log).toContain("[tooltrace] report: tooltrace-report/index.html (3 tests, 1 failed)");
    const runs = [readReport(report(first)), readReport(report(second))];
    const states = runs.map((data) => Object.fromEntries(data.tests.map((t) => [t.fullName, t.state])));
    expect(states).toEqual([
      { [CANCEL]: "failed", [PLAN]: "passed", [WHERE]: "passed" },
      { [CANCEL]: "passed", [PLAN]: "passed", [WHERE]: "passed" },
    ]);
    for (const data of runs) for (const t of data.tests) expect(t.meta?.sessions.length, t.fullName).toBe(1);
    const where = runs.map((data) => data.tests.find((t) => t.fullName === WHERE)?.meta?.sessions[0]?.turns[0]?.text);
    expect(where).toEqual(["in a worker: true", "in a worker: false"]);
    const failed = runs[0]?.tests.find((t) => t.fullName === CANCEL);
    expect(failed?.errors[0]).toContain("toHaveMessageIncluding");
    expect(failed?.meta?.sessions[0]?.turns[0]?.toolCalls[0]).toMatchObject({ tool: "lookup_account", status: "completed" });
    // The run folder the workers handed the sessions over in is gone.
    expect(readdirSync(runTemp).filter((name) => name.startsWith("tooltrace-jest-"))).toEqual([]);
  });

  test("the viewer page opens in headless Chromium with both evals and the failing one's conversation", async () => {
    const browser: Browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const url = pathToFileURL(join(report(first), "index.html")).href;
      page.on("request", (request) => {
        if (request.url() !== url) throw new Error(`the viewer fetched ${request.url()}`);
      });
      await page.goto(url);
      await page.waitForSelector("body[data-ready=true]");
      expect(await page.locator("li.test").allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining("cancels the account"), expect.stringContaining("answers with the plan")]),
      );
      await page.locator("li.test.failed", { hasText: "cancels the account when asked" }).click();
      await expect.poll(() => page.locator("main pre.error").first().textContent()).toContain("toHaveMessageIncluding");
      expect(await page.locator("main .bubble.user").textContent()).toBe("Cancel Ada's account.");
      expect(await page.locator("main .call.tool .cname").textContent()).toBe("lookup_account");
      expect(await page.locator("main .bubble.agent").textContent()).toBe("Ada is on the pro plan.");
      await page.locator("li.test.passed", { hasText: "answers with the plan" }).click();
      await expect.poll(() => page.locator("main .bubble.user").textContent()).toBe("Which plan is Ada on?");
    } finally {
      await browser.close();
    }
  }, 60_000);

  test("show --compare reads two Jest runs: the fixed eval, and the path that changed", async () => {
    const run = (args: readonly string[]) =>
      promisify(execFile)(process.execPath, [bin, "show", "--compare", report(first), report(second), ...args], {
        env: { ...process.env, CI: "1" },
      });
    const { stdout } = await run(["--markdown"]);
    expect(stdout).toContain("3 tests · 0 broken · 1 fixed");
    expect(stdout).toMatch(/account\.jest-spec\.cjs › account agent &gt; cancels the account when asked \| ✅ fixed/);
    expect(stdout).toContain('"Ada is on the pro plan." → "Ada\'s account is cancelled."');
    const page = (await run(["--no-open"])).stdout.trim().split("\n").at(-1) ?? "";
    expect(readFileSync(page, "utf8")).toContain("cancels the account when asked");
  });

  test("the JSON file, the JUnit file with the conversation, the job summary, and Jest's annotations beside them", () => {
    const json = JSON.parse(readFileSync(join(first.cwd, "tooltrace-turns.json"), "utf8")) as ReturnType<typeof readReport>;
    expect(json.tests.map((t) => [t.fullName, t.meta?.sessions[0]?.turns[0]?.userMessage])).toEqual(
      expect.arrayContaining([
        [CANCEL, "Cancel Ada's account."],
        [PLAN, "Which plan is Ada on?"],
      ]),
    );
    const junit = readFileSync(join(first.cwd, "tooltrace-junit.xml"), "utf8");
    expect(junit.match(/<testcase /g)?.length).toBe(3);
    expect(junit.match(/<failure /g)?.length).toBe(1);
    expect(junit).toMatch(/name="account agent &gt; cancels the account when asked"[^>]*>\n\s*<failure[\s\S]*<system-out>session \d/);
    expect(junit).toContain("user: Cancel Ada's account.");
    expect(junit).toContain("1. lookup_account(");
    const markdown = readFileSync(summary, "utf8");
    expect(markdown).toContain("## tooltrace");
    expect(markdown).toContain("| 3 | 2 | 1 | 66.7% | 3 | 2 | 4 |");
    expect(markdown).toContain("| account.jest-spec.cjs | 2 | 1 | 2 | 4 |");
    expect(markdown).toContain("- account agent &gt; cancels the account when asked: ");
    // One summary: the second run was not on GitHub Actions.
    expect(markdown.match(/## tooltrace/g)?.length).toBe(1);
    expect(first.log).toMatch(/::error file=[^,]*account\.jest-spec\.cjs,line=\d+,title=account agent › cancels the account when asked::/);
  });

  test("the planted secret in a tool's input is in no byte either run wrote or printed", () => {
    const files = (folder: string): string[] =>
      readdirSync(folder).flatMap((name) => {
        const path = join(folder, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    const written = [...files(first.cwd), ...files(second.cwd), summary];
    expect(written.length).toBeGreaterThan(8);
    const texts = [...written.map((path) => [path, readFileSync(path, "latin1")]), ["first log", first.log], ["second log", second.log]];
    expect(texts.filter(([, text]) => text?.includes(planted)).map(([name]) => name)).toEqual([]);
    // The input was there, redacted: in the page, the JSON, JUnit and the failure Jest printed.
    for (const name of ["tooltrace-report/index.html", "tooltrace-turns.json", "tooltrace-junit.xml"])
      expect(readFileSync(join(first.cwd, name), "utf8"), name).toContain("password=[redacted]");
    expect(first.log).toContain('"token":"[redacted]"');
  });

  test("pay per use: with Jest's default reporter alone, the setup hands nothing over and no report is written", async () => {
    const cwd = mkdtempSync(join(temp, "plain-"));
    const own = mkdtempSync(join(temp, "tmp-plain-"));
    const ran = await runJestIn(cwd, config, ["--reporters=default", "--maxWorkers=2", `--cacheDirectory=${join(temp, "cache-plain")}`], {
      ...env,
      TMPDIR: own,
    });
    expect(ran.stderr).toContain("Tests:       1 failed, 2 passed, 3 total");
    expect(readdirSync(cwd)).toEqual(["package.json"]);
    expect(readdirSync(own).filter((name) => name.startsWith("tooltrace"))).toEqual([]);
  }, 60_000);
});

test("under Jest's ESM mode too: the reporter named on the command line, the sessions handed over", async () => {
  const esm = join(import.meta.dirname, "../fixtures/jest-project/jest.config.mjs");
  const cwd = mkdtempSync(join(temp, "esm-"));
  const ran = await runJestIn(cwd, esm, ["--reporters=default", "--reporters=tooltrace/jest-reporter"], {
    ...env,
    NODE_OPTIONS: "--experimental-vm-modules --no-warnings",
  });
  expect(ran.code, ran.stderr).toBe(1);
  const tests = readReport(join(cwd, "tooltrace-report")).tests.map((t) => [t.fullName, t.state, t.meta?.sessions.length]);
  expect(tests).toEqual([
    ["matchers are registered and stubs answer", "passed", 1],
    ["tools were restored after the previous test", "passed", undefined],
    ["a strict violation fails the test after it ends", "failed", 1],
  ]);
}, 60_000);

test("a file that fails to load is a failed entry; a retried test keeps its last attempt; one name twice, each its own", async () => {
  const edges = join(import.meta.dirname, "../fixtures/jest-report-edges-project/jest.config.cjs");
  const cwd = mkdtempSync(join(temp, "edges-"));
  const ran = await runJestIn(cwd, edges, ["--runInBand"], env);
  expect(ran.code, ran.stderr).toBe(1);
  const tests = readReport(join(cwd, "tooltrace-report")).tests.map((t) => [
    t.file,
    t.fullName,
    t.state,
    t.fileErrors ? t.errors[0] : t.meta?.sessions[0]?.turns[0]?.userMessage,
  ]);
  expect(tests).toEqual(
    expect.arrayContaining([
      ["broken.jest-spec.cjs", "(the file failed to load)", "failed", expect.stringContaining("this file fails at import")],
      ["edges.jest-spec.cjs", "passes on its second attempt", "passed", "attempt 2"],
      ["edges.jest-spec.cjs", "twice > one name", "passed", "the first"],
      ["edges.jest-spec.cjs", "twice > runs no session", "passed", undefined],
      ["edges.jest-spec.cjs", "twice > one name", "passed", "the second"],
    ]),
  );
  expect(tests).toHaveLength(5);
}, 60_000);

/** The OpenTelemetry JS SDK 3 needs Node 22.15: below it `otel` is refused, naming the floor. */
const otelRuns = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 15);
})();

describe("the OpenTelemetry export under Jest", () => {
  const received: string[] = [];
  const collector = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push(body);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(collector.address() as { port: number }).port}/v1/traces`;
  });
  afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

  test.skipIf(otelRuns)(
    "below Node 22.15, the reporter's `otel` is refused when Jest reads its config, saying where it works",
    async () => {
      const ran = await runJestIn(mkdtempSync(join(temp, "otel-")), config, ["--runInBand"], { ...env, OTLP_URL: url });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toMatch(/needs Node 22\.15 or later, and this is Node \d+\.\d+\.\d+/);
      expect(received).toEqual([]);
    },
    60_000,
  );

  test.runIf(otelRuns)(
    "each turn of a Jest run goes to the collector as spans, redacted",
    async () => {
      const ran = await runJestIn(mkdtempSync(join(temp, "otel-")), config, ["--runInBand"], { ...env, OTLP_URL: url });
      expect(ran.code, ran.stderr).toBe(1);
      const sent = received.join("\n");
      expect(sent).toContain("invoke_agent");
      expect(sent).toContain("execute_tool lookup_account");
      expect(sent).toContain(CANCEL);
      expect(sent).not.toContain(planted);
    },
    60_000,
  );
});
