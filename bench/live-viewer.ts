import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { projectWithBuiltPackage } from "./built-package.js";
import { formatMs, median, quantile } from "./stats.js";

const root = join(import.meta.dirname, "..", "..");
const FILES = 10;
const PER_FILE = 100;
const CALLS = 10_000;

/**
 * A watch session's project: 1,000 tests in 10 files and one test whose turn makes 10,000 stubbed calls, all
 * importing `shared.ts` (rewriting it reruns them all), with tooltrace's reporter and a reporter of the bench's
 * own that stamps the time Vitest reports each test.
 */
function project(): string {
  const folder = projectWithBuiltPackage("live");
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "live-bench", type: "module", private: true }));
  writeFileSync(
    join(folder, "vitest.config.ts"),
    `import { tooltrace } from "tooltrace/vitest";\nexport default { plugins: [tooltrace()], test: { include: ["*.eval.ts"] } };\n`,
  );
  writeFileSync(join(folder, "shared.ts"), "export const run = 1;\n");
  writeFileSync(
    join(folder, "stamps.mjs"),
    `import { writeFileSync } from "node:fs";\nlet stamps = {};\nlet runs = 0;\nexport default class {\n  onTestCaseResult(test) { stamps[test.id] = Date.now(); }\n  onTestRunEnd() { writeFileSync("stamps.json", JSON.stringify({ run: ++runs, stamps })); stamps = {}; }\n}\n`,
  );
  for (let f = 0; f < FILES; f++)
    writeFileSync(
      join(folder, `f${f}.eval.ts`),
      `import { expect, test } from "vitest";\nimport { run } from "./shared.js";\nfor (let i = 0; i < ${PER_FILE}; i++) test(\`t\${i}\`, async () => { await new Promise((r) => setTimeout(r, 1)); expect(run).toBe(run); });\n`,
    );
  writeFileSync(
    join(folder, "big.eval.ts"),
    `import { expect, test } from "vitest";
import { createSession } from "tooltrace";
import { run } from "./shared.js";
test("a turn of ${CALLS} calls", async () => {
  const tools = { search: async (_input: { q: number }) => "real" };
  const session = createSession({
    tools,
    stubs: [{ id: "hit", tool: "search", outcome: { response: { hits: ["a"] } } }],
    agent: async () => { for (let i = 0; i < ${CALLS}; i++) await tools.search({ q: i }); return "done"; },
  });
  const turn = await session.send("search a lot " + run);
  expect(turn.toolCalls).toHaveLength(${CALLS});
});
`,
  );
  return folder;
}

async function until<T>(what: string, get: () => T | undefined, ms = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * From Vitest reporting a test (the bench's reporter's stamp, first in the list) to the served page's frame
 * with its result on screen (the page's `tooltraceShownAt`), in headless Chromium, for every test of a rerun of
 * the whole watch session: 1,000 small tests, and one whose turn made 10,000 calls.
 */
export async function liveViewer() {
  const folder = project();
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
  delete env.CI;
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  const child = spawn(
    process.execPath,
    [vitest, "--watch", "--reporter=./stamps.mjs", "--reporter=tooltrace/reporter", "--reporter=default"],
    {
      cwd: folder,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const stamps = () =>
    existsSync(join(folder, "stamps.json")) ? JSON.parse(readFileSync(join(folder, "stamps.json"), "utf8")) : undefined;
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
  try {
    const url = await until("the live viewer's URL", () => /live viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1]);
    await until("the first run", () => (stamps()?.run === 1 ? true : undefined));
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector("body[data-live=true]");
    await until("the watcher", () => (/(Waiting|Watching) for file changes/.test(out) ? true : undefined));
    writeFileSync(join(folder, "shared.ts"), "export const run = 2;\n");
    const reported = await until("the rerun", () => {
      const current = stamps();
      return current?.run === 2 ? (current.stamps as Record<string, number>) : undefined;
    });
    await page.waitForFunction(
      (count) => Object.keys((window as { tooltraceShownAt?: object }).tooltraceShownAt ?? {}).length >= count,
      Object.keys(reported).length,
      {
        timeout: 60_000,
      },
    );
    const shown = await page.evaluate(() => (window as unknown as { tooltraceShownAt: Record<string, number> }).tooltraceShownAt);
    const names = await page.evaluate(() => JSON.parse(document.getElementById("tooltrace-data")?.textContent ?? "{}"));
    const big = (names.tests as { id: string; fullName: string }[]).find((test) => test.fullName.startsWith("a turn of"))?.id;
    // A large test's result comes with its first calls; its whole trace follows (a build before that: at once).
    const twoSteps = await page.evaluate(() => "tooltraceWholeAt" in window);
    const wholeAt = !twoSteps
      ? Number.NaN
      : await page
          .waitForFunction((id) => (window as { tooltraceWholeAt?: Record<string, number> }).tooltraceWholeAt?.[id ?? ""], big, {
            timeout: 60_000,
          })
          .then((handle) => handle.jsonValue() as Promise<number>)
          .catch(() => Number.NaN);
    const small: number[] = [];
    let bigMs = Number.NaN;
    let bigWholeMs = Number.NaN;
    for (const [id, at] of Object.entries(reported)) {
      const seen = shown[id];
      if (seen === undefined) throw new Error(`test ${id} never reached the page`);
      if (id === big) {
        bigMs = seen - at;
        bigWholeMs = wholeAt - at;
      } else small.push(seen - at);
    }
    return { small, bigMs, bigWholeMs };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; Vitest printed:\n${out.slice(-3000)}`);
  } finally {
    await browser.close();
    child.kill("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  }
}

export function reportLiveViewer(result: Awaited<ReturnType<typeof liveViewer>>): string {
  const { small, bigMs, bigWholeMs } = result;
  return [
    `live viewer, Vitest reporting a test to its result on screen (headless Chromium, a rerun of ${small.length.toLocaleString("en")} tests):`,
    `  median ${formatMs(median(small))}, p95 ${formatMs(quantile(small, 0.95))}, max ${formatMs(Math.max(...small))} (aim: < 300 ms)`,
    `  the test whose turn made ${CALLS.toLocaleString("en")} calls: ${formatMs(bigMs)} (aim: < 300 ms)` +
      (Number.isNaN(bigWholeMs) ? "" : `, with its first calls; all its calls on the page: ${formatMs(bigWholeMs)}`),
  ].join("\n");
}
