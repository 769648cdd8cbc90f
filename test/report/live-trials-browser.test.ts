import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vitestModule from "vitest";
import { expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";
import { packageFile } from "../fixtures/versions.js";

const hostile = "<img src=x onerror=window.pwned=1>";
/** Vitest records test artifacts, the trials' channel, from 4.0.11 on (3.2 in the matrix shows the result alone). */
const artifacts = "recordArtifact" in vitestModule;

/**
 * A project whose one test runs 6 trials, one at a time, each waiting for its file (`go-<index>`) the test
 * writes: the second trial fails with a hostile message. A reporter of the project's own counts the artifacts
 * Vitest hands reporters and the trials they hold, and prints both when each run ends.
 */
function writeProject(project: string): void {
  writeFileSync(
    join(project, "vitest.config.ts"),
    `import { tooltrace } from "tooltrace/vitest";
export default { plugins: [tooltrace()], test: { include: ["*.eval.ts"] } };
`,
  );
  writeFileSync(
    join(project, "artifacts.mjs"),
    `let artifacts = 0;
let trials = 0;
export default class {
  onTestCaseArtifactRecord(_test, artifact) {
    artifacts += 1;
    trials += artifact.progress?.trials?.length ?? 0;
  }
  onTestRunEnd() { console.log("artifacts recorded: " + artifacts + ", holding " + trials + " trials"); }
}
`,
  );
  writeFileSync(
    join(project, "trials.eval.ts"),
    `import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "vitest";
import { trials } from "tooltrace";

test("six trials ${hostile}", async () => {
  await trials(6, { minPassRate: 0.5 }, async ({ index }) => {
    while (!existsSync(join(process.cwd(), "go-" + index))) await new Promise((resolve) => setTimeout(resolve, 20));
    if (index === 1) throw new Error("refused ${hostile}");
  });
}, 120_000);
`,
  );
}

async function printed(output: () => string, pattern: RegExp, ms = 60_000): Promise<void> {
  const started = Date.now();
  while (!pattern.test(output())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${pattern}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function vitest(project: string, args: readonly string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
  delete env.CI;
  delete env.GITHUB_ACTIONS;
  const reporters = ["--reporter=default", "--reporter=tooltrace/reporter", "--reporter=./artifacts.mjs"];
  const child = spawn(process.execPath, [packageFile("vitest", "vitest.mjs"), ...args, ...reporters], {
    cwd: project,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const run = { out: "", exited: new Promise((resolve) => child.on("exit", resolve)), child };
  child.stdout.on("data", (chunk: Buffer) => (run.out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (run.out += chunk.toString()));
  return run;
}

const go = (project: string, ...indexes: number[]) => {
  for (const index of indexes) writeFileSync(join(project, `go-${index}`), "");
};

test.skipIf(!projectInstalled || !artifacts)(
  "watch mode: the live viewer fills in a running test's trials as each finishes, with its pass rate so far",
  async () => {
    const project = projectWithPackage("live-trials");
    writeProject(project);
    const run = vitest(project, ["--watch"]);
    const browser = await launchChromium();
    try {
      await printed(() => run.out, /live viewer: http:\/\/127\.0\.0\.1:\d+\//);
      const url = /live viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.out)?.[1] as string;
      const page = await browser.newPage({ viewport: { width: 1200, height: 640 } });
      await page.goto(url);
      await page.waitForSelector("body[data-live=true]");
      const row = page.locator("li.test", { hasText: "six trials" });
      await expect.poll(() => row.getAttribute("class"), { timeout: 60_000 }).toContain("running");
      await row.click();

      // Two trials finish: the open page shows them, the test still running.
      go(project, 0, 1);
      const soFar = page.locator("main section.trials.so-far");
      await expect
        .poll(() => soFar.locator("h2").textContent(), { timeout: 30_000 })
        .toBe("Trials so far: 2 of 6 done · 1 passed · 1 failed");
      expect(await soFar.locator(".interval").textContent()).toBe("pass rate so far 50% (95% interval 9.5%–90.5%) · min 50%");
      expect(await row.locator(".rate-badge").textContent()).toBe("2 of 6");
      expect(await row.getAttribute("class")).toContain("running");
      expect(await soFar.locator(".trial.fail").getAttribute("title")).toBe(`seed 2 · refused ${hostile}`);
      expect(await soFar.locator(".so-far-name").textContent()).toBe(`six trials ${hostile}`);

      // The rest finish: the test's result replaces what it had so far.
      go(project, 2, 3, 4, 5);
      await expect.poll(() => row.getAttribute("class"), { timeout: 30_000 }).toContain("passed");
      await expect.poll(() => page.locator("main section.trials h2").textContent()).toMatch(/^Trials: 5 of 6 passed/);
      expect(await page.locator("main section.trials.so-far").count()).toBe(0);
      expect(await row.locator(".rate-badge").textContent()).toBe("5/6");
      // Trials that finish within 100 ms of the last sent go as one artifact.
      await printed(() => run.out, /artifacts recorded: [2-6], holding 6 trials/);

      // Hostile names and messages stayed text; no artifact was printed as a line of its own.
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      expect(await page.locator("#tests img, main img, main script").count()).toBe(0);
      expect(run.out).not.toContain("tooltrace:trials");
    } finally {
      await browser.close();
      run.child.kill("SIGKILL");
      await run.exited;
      rmSync(project, { recursive: true, force: true });
    }
  },
  180_000,
);

test.skipIf(!projectInstalled)(
  "vitest run: trials send nothing per trial (no live viewer reads it)",
  async () => {
    const project = projectWithPackage("run-trials");
    writeProject(project);
    go(project, 0, 1, 2, 3, 4, 5);
    const run = vitest(project, ["run"]);
    try {
      await run.exited;
      expect(run.out).toContain("artifacts recorded: 0, holding 0 trials");
      expect(run.out).toMatch(/1 passed/);
    } finally {
      run.child.kill("SIGKILL");
      rmSync(project, { recursive: true, force: true });
    }
  },
  120_000,
);
