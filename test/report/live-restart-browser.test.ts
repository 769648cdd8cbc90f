import { rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { printed, watchWithReporter } from "../fixtures/vitest-watch.js";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";

const config = (timeout: number) => `export default { test: { include: ["*.eval.ts"], testTimeout: ${timeout} } };\n`;
const evalFile = (expected: number) =>
  `import { expect, test } from "vitest";\n\ntest("one", () => {\n  expect(1).toBe(${expected});\n});\n`;

/** The served viewer's answer to `GET /`: its status, or the connection's error. */
function status(url: string): Promise<number> {
  const { host, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path: "/", headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    sent.on("error", reject);
    sent.end();
  });
}

test.skipIf(!projectInstalled)(
  "Vitest restarting (its config edited) keeps the live viewer: one URL, the open page still live, closed when Vitest ends",
  async () => {
    const project = projectWithPackage("live-restart");
    writeFileSync(join(project, "vitest.config.ts"), config(5_000));
    writeFileSync(join(project, "one.eval.ts"), evalFile(1));
    const { child, output, exited } = watchWithReporter(project);
    const browser = await launchChromium();
    try {
      await printed(output, /(Waiting|Watching) for file changes/, 1);
      const url = /live viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output())?.[1] as string;
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForSelector("body[data-live=true]");
      const row = page.locator("li.test", { hasText: "one" });
      await expect.poll(() => row.getAttribute("class"), { timeout: 30_000 }).toContain("passed");
      await page.evaluate(() => ((window as { loadedOnce?: number }).loadedOnce = 1));

      // The config edited: Vitest restarts in the same process, and its new session serves on the same URL.
      writeFileSync(join(project, "vitest.config.ts"), config(6_000));
      await printed(output, /Restarting due to config changes/, 1);
      await printed(output, /(Waiting|Watching) for file changes/, 2);
      await printed(output, /live viewer: /, 2);
      expect(new Set([...output().matchAll(/live viewer: (\S+)/g)].map((match) => match[1]))).toEqual(new Set([url]));
      expect(await status(url)).toBe(200);

      // The page opened before the restart shows the new session's results, without a reload.
      writeFileSync(join(project, "one.eval.ts"), evalFile(2));
      await expect.poll(() => row.getAttribute("class"), { timeout: 30_000 }).toContain("failed");
      expect(await page.evaluate(() => (window as { loadedOnce?: number }).loadedOnce)).toBe(1);

      // The server ends with Vitest.
      child.kill("SIGTERM");
      await exited;
      await expect(status(url)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await browser.close();
      child.kill("SIGKILL");
      rmSync(project, { recursive: true, force: true });
    }
  },
  120_000,
);
