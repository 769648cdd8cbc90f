import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { createSession, turnToJson } from "tooltrace";
import { reportData, viewerHtml } from "tooltrace/reporter";
import { formatMs, withSpread } from "./stats.js";

const CALLS = 10_000;
const SAMPLES = 7;

/** A real session's turn of 10,000 stubbed tool calls, in the viewer's page. */
async function bigReport(): Promise<string> {
  const tools = { search: async (_input: { q: number }) => "real" };
  const session = createSession({
    tools,
    stubs: [{ id: "hit", tool: "search", outcome: { response: { hits: ["a", "b"] } } }],
    agent: async () => {
      for (let i = 0; i < CALLS; i++) await tools.search({ q: i });
      return "done";
    },
  });
  const turn = turnToJson(await session.send("search a lot"));
  session.close();
  const meta = {
    version: 2 as const,
    sessions: [{ name: "big", strict: false, turns: [turn], tools: {}, unusedRuleIds: [], violations: [] }],
  };
  const data = reportData([
    { id: "big", file: "big.eval.ts", fullName: "10,000 calls", state: "failed", errors: ["a failure, so the viewer opens on it"], meta },
  ]);
  const page = join(mkdtempSync(join(tmpdir(), "tooltrace-viewer-bench-")), "index.html");
  writeFileSync(page, viewerHtml(data));
  return page;
}

/** Time from navigation to the viewer having drawn the 10,000-call turn (`data-ready`), in headless Chromium. */
export async function viewerRender() {
  const page = await bigReport();
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
  const samples: number[] = [];
  const complete: number[] = [];
  try {
    for (let i = 0; i < SAMPLES + 1; i++) {
      const tab = await browser.newPage();
      const started = performance.now();
      await tab.goto(pathToFileURL(page).href);
      await tab.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
      const opened = performance.now() - started;
      await tab.waitForSelector("body[data-complete=true]", { timeout: 30_000 });
      const drawn = performance.now() - started;
      const rows = await tab.locator("main .call").count();
      if (rows !== CALLS) throw new Error(`the viewer drew ${rows} calls of ${CALLS}`);
      if (i > 0) {
        samples.push(opened);
        complete.push(drawn);
      }
      await tab.close();
    }
  } finally {
    await browser.close();
  }
  return { samples, complete };
}

export function reportViewerRender(result: Awaited<ReturnType<typeof viewerRender>>): string {
  return [
    `viewer, a turn of ${CALLS.toLocaleString("en")} calls in headless Chromium: shown (the first rows and the timeline) ${withSpread(result.samples, (ms) => formatMs(ms))} (aim: < 1 s)`,
    `every row drawn: ${withSpread(result.complete, (ms) => formatMs(ms))}`,
  ].join("\n");
}
