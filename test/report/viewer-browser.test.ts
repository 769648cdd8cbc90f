import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { runWithReport } from "../fixtures/report-run.js";

let browser: Browser;
let page: Page;
let url: string;
beforeAll(async () => {
  const run = await runWithReport();
  url = pathToFileURL(join(run.folder, "index.html")).href;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // Nothing may be fetched: a request other than the page itself would be a leak of the report's data.
  page.on("request", (request) => {
    if (request.url() !== url) throw new Error(`the viewer fetched ${request.url()}`);
  });
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

describe("the trace viewer in a real browser (headless Chromium), opened from disk", () => {
  test("it opens on a failed test; a failed test is marked, with its message and conversation", async () => {
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]");
    await expect.poll(() => page.locator("main .header h1").getAttribute("class")).toBeNull();
    expect(await page.locator("main .header").getAttribute("class")).toBe("header failed");
    const failed = page.locator("li.test.failed", { hasText: "strict violation fails the test even though the agent recovered" });
    await expect.poll(() => failed.count()).toBe(1);
    await failed.click();
    await expect.poll(() => page.locator("main .header.failed h1").textContent()).toContain("strict violation fails the test");
    await expect
      .poll(() => page.locator("main pre.error").first().textContent())
      .toContain("strict mode: no stub rule matched list_tasks({})");
    await expect.poll(() => page.locator("main .call.tool .by").first().textContent()).toBe("strict mode");
    // The README's picture of the viewer: `TOOLTRACE_SCREENSHOT=1 npx vitest run test/report` writes it again.
    const shot =
      process.env.TOOLTRACE_SCREENSHOT === "1" ? join(import.meta.dirname, "../../docs") : mkdtempSync(join(tmpdir(), "tooltrace-shot-"));
    mkdirSync(shot, { recursive: true });
    await page.screenshot({ path: join(shot, "viewer.png") });
  });

  test("a test's conversation shows what the stub answered, and its timeline has one bar per interaction", async () => {
    await page.locator("li.test", { hasText: "leaves an unused rule" }).click();
    await expect.poll(() => page.locator("main .call.tool .by").first().textContent()).toBe("stub \u201cused\u201d #1");
    const calls = await page.locator("main .call").count();
    expect(calls).toBeGreaterThan(0);
    expect(await page.locator("main .timeline .bar").count()).toBe(calls);
    // A call opens its details, and the link opens the same call.
    await page.locator("main .call .head").first().click();
    await expect.poll(() => page.locator("main .call.open .details").textContent()).toContain("input");
    expect(new URL(page.url()).hash).toMatch(/test=.+&call=\d+/);
  });

  test("search finds the tests that called a tool; the Failed filter keeps only failures", async () => {
    await page.locator("#search").fill("list_tasks");
    const found = await page.locator("li.test").count();
    expect(found).toBeGreaterThan(0);
    await page.locator("#search").fill("no such tool anywhere");
    await expect.poll(() => page.locator("li.test").count()).toBe(0);
    await page.locator("#search").fill("");
    await page.locator("[data-filter=failed]").click();
    const names = await page.locator("li.test").allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(await page.locator("li.test.passed").count()).toBe(0);
  });

  test("a test's trials show as a chart: the pass rate against its minimum, a square per trial, the paths they took", async () => {
    await page.locator("#search").fill("");
    await page.locator("[data-filter=all]").click();
    const item = page.locator("li.test", { hasText: "trials of a flaky agent" });
    await expect.poll(() => item.locator(".rate-badge").textContent()).toMatch(/^\d\/8$/);
    await item.click();
    const heading = await page.locator("main .trials h2").textContent();
    const passed = Number(/Trials: (\d) of 8 passed/.exec(heading ?? "")?.[1]);
    expect(heading).toContain("min 25%");
    expect(await page.locator("main .trials .trial").count()).toBe(8);
    expect(await page.locator("main .trials .trial.fail").count()).toBe(8 - passed);
    expect(await page.locator("main .trials .branch .bpath").allTextContents()).toEqual(
      expect.arrayContaining(["lookup", "(no tool calls)"]),
    );
    expect(await page.locator("main .trials .fill").evaluate((el) => (el as HTMLElement).style.width)).toBe(`${(passed / 8) * 100}%`);
    // Beside the chart, the tree of where the trials diverged: lookup, or no call at all.
    expect(await page.locator("main .trials .tree h3").textContent()).toBe("Where they diverge");
    const nodes = await page.locator("main .trials .tree .node .steps").allTextContents();
    expect(nodes).toEqual(expect.arrayContaining(["lookup"]));
    const counts = await page.locator("main .trials .tree .node .ncount").allTextContents();
    expect(counts.reduce((sum, text) => sum + Number(text.split(" ")[0]), 0)).toBe(8);
    if (process.env.TOOLTRACE_SCREENSHOT === "1")
      await page.locator("main .trials").screenshot({ path: join(import.meta.dirname, "../../docs/trials.png") });
    // Each trial's session is in the report too, named by its trial and seed.
    expect(await page.locator("main .session h2", { hasText: "trial 1 (seed 1)" }).count()).toBe(1);
  });
  test("tests are grouped by file; a file that failed to load is a failed entry with its error", async () => {
    await page.locator("#search").fill("");
    await page.locator("[data-filter=all]").click();
    const files = await page.locator("li.file").allTextContents();
    expect(files).toEqual(expect.arrayContaining(["broken.viewer-spec.ts", "plugin.agent-spec.ts", "viewer.viewer-spec.ts"]));
    expect(new Set(files).size).toBe(files.length);
    expect(await page.locator("h1").first().textContent()).toMatch(/^tooltrace: \d+ of \d+ passed, 2 files with errors$/);
    const broken = page.locator("li.test.failed", { hasText: "(the file failed to load)" });
    expect(await broken.count()).toBe(1);
    await broken.click();
    await expect.poll(() => page.locator("main pre.error").first().textContent()).toContain("this file fails at import");
  });

  test("an HTTP request sits under the tool call that made it, named by it", async () => {
    await page.locator("li.test", { hasText: "a tool's HTTP request sits under the tool" }).click();
    await expect.poll(() => page.locator("main .call").count()).toBe(3);
    const rows = await page
      .locator("main .call")
      .evaluateAll((els) =>
        els.map((el) => [el.className, el.querySelector(".cname")?.textContent, el.querySelector(".via")?.textContent ?? ""]),
      );
    expect(rows).toEqual([
      ["call tool completed", "list_cities", ""],
      ["call tool completed", "get_weather", ""],
      ["call http completed nested", "GET https://api.weather.test/v1/current?city=Paris", "from get_weather"],
    ]);
    // Sub-millisecond calls show their fraction, not "0 ms".
    const durations = await page.locator("main .call .ms").allTextContents();
    expect(durations.length).toBe(3);
    for (const text of durations) expect(text).toMatch(/^(\d+\.\d\d?|\d+) ms$/);
    expect(durations).not.toContain("0 ms");
  });

  test("filters by kind, by answer and by status keep the tests and the rows that have them", async () => {
    await page.locator("#filter-kind").selectOption("http");
    await expect.poll(() => page.locator("li.test").allTextContents()).toEqual([expect.stringContaining("a tool's HTTP request")]);
    await expect.poll(() => page.locator("main .call").count()).toBe(1);
    expect(await page.locator("main .call").getAttribute("class")).toContain("http");
    await page.locator("#filter-kind").selectOption("all");
    await page.locator("#filter-by").selectOption("refused");
    await expect.poll(() => page.locator("li.test", { hasText: "strict violation fails the test" }).count()).toBe(1);
    expect(await page.locator("li.test", { hasText: "a tool's HTTP request" }).count()).toBe(0);
    await page.locator("li.test", { hasText: "strict violation fails the test" }).click();
    await expect.poll(() => page.locator("main .call .by").allTextContents()).toEqual(["strict mode"]);
    await page.locator("#filter-by").selectOption("all");
    // By status: the rejected calls are the refused ones here.
    await page.locator("#filter-status").selectOption("rejected");
    await expect.poll(() => page.locator("li.test", { hasText: "strict violation fails the test" }).count()).toBe(1);
    expect(await page.locator("li.test", { hasText: "leaves an unused rule" }).count()).toBe(0);
    await page.locator("#filter-status").selectOption("all");
  });
});
