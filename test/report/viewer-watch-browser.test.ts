import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { type ReportTest, reportData } from "../../src/report/report-data.js";
import { viewerHtml } from "../../src/report/viewer-html.js";

const hostile = "<img src=x onerror=window.pwned=1><script>window.pwned=1</script>";

test("the viewer marks a test from an earlier run and lists the last runs, hostile text as text (headless Chromium)", async () => {
  const tests: ReportTest[] = [
    { id: "a", file: "a.eval.ts", fullName: `kept ${hostile}`, state: "passed", errors: [], fromRun: "2026-01-01T00:00:00.000Z" },
    { id: "b", file: "b.eval.ts", fullName: "edited", state: "failed", errors: ["expected 1 to be 2"] },
  ];
  const history = [
    { at: "2026-01-01T00:00:00.000Z", tests: 2, failed: 0, durationMs: 900 },
    { at: "2026-01-01T00:01:00.000Z", tests: 2, failed: 1, durationMs: 300 },
  ];
  const file = join(mkdtempSync(join(tmpdir(), "tooltrace-viewer-watch-")), "index.html");
  writeFileSync(file, viewerHtml(reportData(tests, history)));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${pathToFileURL(file).href}#test=a`);
    await page.waitForSelector("body[data-ready=true]");
    const kept = page.locator("li.test", { hasText: "kept" });
    expect(await kept.locator(".earlier").textContent()).toBe("earlier run");
    expect(await page.locator("li.test", { hasText: "edited" }).locator(".earlier").count()).toBe(0);
    expect(await kept.locator(".name").textContent()).toBe(`kept ${hostile}`);
    expect(await page.locator("main .header .earlier").textContent()).toContain("from an earlier run");
    expect(await page.locator("#history summary").textContent()).toBe("Last 2 runs");
    const lines = await page.locator("#history li").allTextContents();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/2 tests · 1 failed/);
    expect(lines[1]).toMatch(/2 tests · 0 failed/);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator("li.test img").count()).toBe(0);
  } finally {
    await browser.close();
  }
}, 60_000);
