import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { printed, watchWithReporter } from "../fixtures/vitest-watch.js";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";

const hostile = "<img src=x onerror=window.pwned=1>";

function writeEdited(project: string, expected: number): void {
  writeFileSync(
    join(project, "edited.eval.ts"),
    `import type { Locator } from "playwright-core";
import { expect, test } from "vitest";\n\ntest("edited <script>window.pwned=1</script>", () => {\n  expect(1).toBe(${expected});\n});\n`,
  );
}

/** Each test of kept.eval.ts appends its name to runs.log; "kept" fails from its second run on, after a while. */
function writeKept(project: string): void {
  writeFileSync(
    join(project, "kept.eval.ts"),
    `import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { expect, test } from "vitest";

const log = join(process.cwd(), "runs.log");
const runs = (name: string) => readFileSync(log, "utf8").split("\\n").filter((line) => line === name).length;

test("kept ${hostile}", async () => {
  appendFileSync(log, "kept\\n");
  // Held until the page has shown it running (the test writes "release"): a short test's start and result may
  // reach the reporter in one batch of Vitest's, and the page then shows the result alone.
  if (runs("kept") > 1) while (!existsSync(join(process.cwd(), "release"))) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(runs("kept")).toBe(1);
});

test("neighbour", () => {
  appendFileSync(log, "neighbour\\n");
  expect(1).toBe(1);
});
`,
  );
}

/** A raw request to the served viewer, with the headers given (Host among them): its status. */
function status(url: string, options: { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: "127.0.0.1", port, path: options.path, method: options.method ?? "GET", headers: options.headers },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on("error", reject);
    sent.end(options.body);
  });
}

test.skipIf(!projectInstalled)(
  "watch mode serves a live viewer: results arrive without a reload, a click reruns a test, foreign hosts are refused",
  async () => {
    const project = projectWithPackage("live-viewer");
    writeFileSync(join(project, "vitest.config.ts"), `export default { test: { include: ["*.eval.ts"] } };\n`);
    writeFileSync(join(project, "runs.log"), "");
    writeKept(project);
    writeEdited(project, 1);
    const { child, output, exited } = watchWithReporter(project);
    const browser = await launchChromium();
    try {
      await printed(output, /live viewer: http:\/\/127\.0\.0\.1:\d+\//, 1);
      const url = /live viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output())?.[1] as string;
      expect(output().match(/live viewer: /g)).toHaveLength(1);
      await printed(output, /(Waiting|Watching) for file changes/, 1);
      const { host } = new URL(url);

      // Only this machine, only its own pages, only from its own page.
      expect(await status(url, { path: "/", headers: { host } })).toBe(200);
      expect(await status(url, { path: "/", headers: { host: `evil.example:${new URL(url).port}` } })).toBe(403);
      expect(await status(url, { path: "/", headers: { host: `localhost:${new URL(url).port}` } })).toBe(403);
      expect(await status(url, { path: "/etc/passwd", headers: { host } })).toBe(404);
      expect(await status(url, { path: "/events", headers: { host } })).toBe(403);
      const rerun = { path: "/rerun", method: "POST", body: '{"what":"failed"}' };
      const json = { host, "content-type": "application/json" };
      expect(await status(url, { ...rerun, headers: { ...json, origin: "http://evil.example" } })).toBe(403);
      expect(await status(url, { ...rerun, headers: { ...json, origin: `http://${host}`, "x-tooltrace-token": "guess" } })).toBe(403);

      const page = await browser.newPage({ viewport: { width: 1200, height: 640 } });
      // A click on a rerun button, again while the server answers that a run is under way (409).
      const rerunBy = async (button: Locator) => {
        for (;;) {
          const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/rerun")), button.click()]);
          if (response.status() === 202) return;
          expect(response.status()).toBe(409);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      await page.goto(`${url}#test=`);
      await page.waitForSelector("body[data-live=true]");
      await expect.poll(() => page.locator("li.test").count(), { timeout: 30_000 }).toBe(3);
      await page.evaluate(() => ((window as { loadedOnce?: number }).loadedOnce = 1));
      const edited = page.locator("li.test", { hasText: "edited" });
      await edited.click();
      expect(await edited.locator(".name").textContent()).toBe("edited <script>window.pwned=1</script>");

      // An edit: its result arrives in the open page, the open test stays open, the rest of the suite stays.
      writeEdited(project, 2);
      await expect.poll(() => edited.getAttribute("class"), { timeout: 30_000 }).toContain("failed");
      await expect.poll(() => page.locator("main .header h1").textContent()).toBe("edited <script>window.pwned=1</script>");
      await expect.poll(() => page.locator("main .since .state").textContent(), { timeout: 30_000 }).toBe("passed \u2192 failed");
      expect(await page.locator("li.test", { hasText: "kept" }).locator(".name").textContent()).toBe(`kept ${hostile}`);
      await expect.poll(() => page.locator("li.test", { hasText: "neighbour" }).locator(".earlier").count(), { timeout: 30_000 }).toBe(1);
      expect(await page.evaluate(() => (window as { loadedOnce?: number }).loadedOnce)).toBe(1);
      await printed(output, /(Waiting|Watching) for file changes/, 2);

      // A click reruns one test: its new result (it fails on a second run) arrives live; its neighbour did not run.
      const kept = page.locator("li.test", { hasText: "kept" });
      await kept.click();
      await rerunBy(page.locator("main .header button.rerun[data-rerun=test]"));
      await expect.poll(() => kept.getAttribute("class"), { timeout: 30_000 }).toContain("running");
      writeFileSync(join(project, "release"), "");
      await expect.poll(() => kept.getAttribute("class"), { timeout: 30_000 }).toContain("failed");
      await expect.poll(() => page.locator("#history summary").textContent(), { timeout: 30_000 }).toBe("Last 3 runs");
      expect(readFileSync(join(project, "runs.log"), "utf8").trim().split("\n").sort()).toEqual(["kept", "kept", "neighbour"]);
      const neighbour = page.locator("li.test", { hasText: "neighbour" });
      expect(await neighbour.getAttribute("class")).toContain("passed");
      expect(await page.locator("main .since .state").textContent()).toBe("passed \u2192 failed");
      expect(await page.evaluate(() => (window as { loadedOnce?: number }).loadedOnce)).toBe(1);
      // Hostile test names stayed text.
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      expect(await page.locator("#tests img, #tests script, main .header script").count()).toBe(0);

      // The README's picture of the live view: `TOOLTRACE_SCREENSHOT=1` writes it into docs/.
      const shot =
        process.env.TOOLTRACE_SCREENSHOT === "1" ? join(import.meta.dirname, "../../docs") : mkdtempSync(join(tmpdir(), "tooltrace-shot-"));
      mkdirSync(shot, { recursive: true });
      await page.screenshot({ path: join(shot, "live-viewer.png") });

      // "Rerun failed": the two failed tests rerun (each alone), the neighbour does not.
      await rerunBy(page.locator("aside button.rerun[data-rerun=failed]"));
      await expect.poll(() => page.locator("#history summary").textContent(), { timeout: 30_000 }).toBe("Last 4 runs");
      expect(readFileSync(join(project, "runs.log"), "utf8").trim().split("\n").sort()).toEqual(["kept", "kept", "kept", "neighbour"]);
      expect(await page.locator("li.test.failed").count()).toBe(2);

      // The server ends with Vitest.
      child.kill("SIGTERM");
      await exited;
      await expect(status(url, { path: "/", headers: { host } })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await browser.close();
      child.kill("SIGKILL");
      rmSync(project, { recursive: true, force: true });
    }
  },
  120_000,
);
