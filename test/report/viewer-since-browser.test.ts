import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { type ReportTest, reportData } from "../../src/report/report-data.js";
import { viewerHtml } from "../../src/report/viewer-html.js";

const hostile = "<img src=x onerror=window.pwned=1><script>window.pwned=1</script>";

test("the viewer shows what changed since the last run and marks a test whose state changed, hostile text as text (headless Chromium)", async () => {
  const tests: ReportTest[] = [
    {
      id: "a",
      file: "a.eval.ts",
      fullName: "books",
      state: "passed",
      errors: [],
      sinceLast: {
        before: { state: "failed", tokens: 1234, durationMs: 2000, scores: { [hostile]: 0.4 } },
        after: { state: "passed", tokens: 980, durationMs: 1500, scores: { [hostile]: 0.8 } },
        trajectory: [{ session: `agent ${hostile}`, diff: `  search\n- cancel ${hostile}\n+ book` }],
      },
    },
    {
      id: "b",
      file: "a.eval.ts",
      fullName: "tokens only",
      state: "passed",
      errors: [],
      sinceLast: {
        before: { state: "passed", tokens: 10, durationMs: 5 },
        after: { state: "passed", tokens: 20, durationMs: 5 },
        trajectory: [],
      },
    },
    { id: "c", file: "a.eval.ts", fullName: "new", state: "failed", errors: ["expected 1 to be 2"] },
  ];
  const file = join(mkdtempSync(join(tmpdir(), "tooltrace-viewer-since-")), "index.html");
  writeFileSync(file, viewerHtml(reportData(tests)));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${pathToFileURL(file).href}#test=a`);
    await page.waitForSelector("body[data-ready=true]");
    const block = page.locator("main .since");
    expect(await block.locator("h2").textContent()).toBe("Since the last run");
    const lines = await block.locator(".moved").allTextContents();
    expect(lines).toContain("failed \u2192 passed");
    expect(lines).toContain("tokens 1,234 \u2192 980 (-21%)");
    expect(lines).toContain("latency 2,000 ms \u2192 1,500 ms (-25%)");
    expect(lines).toContain(`judge ${hostile} 0.40 \u2192 0.80`);
    expect(await block.locator(".session-name").textContent()).toBe(`tool sequence, agent ${hostile}`);
    expect(await block.locator("pre.diff .del").textContent()).toBe(`- cancel ${hostile}`);
    expect(await block.locator("pre.diff .add").textContent()).toBe("+ book");

    const marker = page.locator("li.test", { hasText: "books" }).locator(".changed");
    expect(await marker.textContent()).toBe("changed");
    expect(await marker.getAttribute("title")).toBe("since the last run: failed \u2192 passed");
    expect(await page.locator("li.test", { hasText: "tokens only" }).locator(".changed").count()).toBe(0);
    expect(await page.locator("li.test", { hasText: "new" }).locator(".changed").count()).toBe(0);

    await page.goto(`${pathToFileURL(file).href}#test=b`);
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "tokens only");
    expect(await page.locator("main .since .moved").allTextContents()).toEqual(["tokens 10 \u2192 20 (+100%)"]);
    await page.goto(`${pathToFileURL(file).href}#test=c`);
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "new");
    expect(await page.locator("main .since").count()).toBe(0);

    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator("img").count()).toBe(0);
  } finally {
    await browser.close();
  }
}, 60_000);
