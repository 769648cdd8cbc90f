import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { type ReportTest, reportData } from "../../src/report/report-data.js";
import { viewerHtml } from "../../src/report/viewer-html.js";

const bin = join(import.meta.dirname, "../../dist/bin.js");

function writeReport(folder: string, tests: ReportTest[]): void {
  writeFileSync(join(folder, "index.html"), viewerHtml(reportData(tests)));
}

test("show --serve serves a saved report on 127.0.0.1, follows the file as it changes, and refuses reruns (headless Chromium)", async () => {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-serve-"));
  writeReport(folder, [{ id: "a", file: "a.eval.ts", fullName: "first <b>bold</b>", state: "passed", errors: [] }]);
  const child = spawn(process.execPath, [bin, "show", "--serve", folder, "--no-open"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const browser = await launchChromium();
  try {
    await expect.poll(() => /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0], { timeout: 20_000 }).toBeDefined();
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0] as string;
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector("body[data-live=true]");
    expect(await page.locator("li.test .name").allTextContents()).toEqual(["first <b>bold</b>"]);
    // No Vitest behind it: no rerun buttons, and a rerun asked anyway is refused.
    expect(await page.locator("button.rerun").count()).toBe(0);
    const token = await page.evaluate(() => JSON.parse(document.getElementById("tooltrace-live")?.textContent ?? "{}").token as string);
    const refused = await page.evaluate(
      async (token) =>
        (
          await fetch("/rerun", {
            method: "POST",
            headers: { "content-type": "application/json", "x-tooltrace-token": token },
            body: '{"what":"failed"}',
          })
        ).status,
      token,
    );
    expect(refused).toBe(501);
    await page.evaluate(() => ((window as { loadedOnce?: number }).loadedOnce = 1));
    writeReport(folder, [
      { id: "a", file: "a.eval.ts", fullName: "first <b>bold</b>", state: "passed", errors: [] },
      { id: "b", file: "b.eval.ts", fullName: "second", state: "failed", errors: ["expected 1 to be 2"] },
    ]);
    await expect.poll(() => page.locator("li.test .name").allTextContents(), { timeout: 20_000 }).toEqual(["first <b>bold</b>", "second"]);
    expect(await page.evaluate(() => (window as { loadedOnce?: number }).loadedOnce)).toBe(1);
    expect(await page.locator("aside h1").textContent()).toBe("tooltrace: 1 of 2 passed");
  } finally {
    await browser.close();
    child.kill("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);
