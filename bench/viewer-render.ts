import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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

/**
 * In headless Chromium, from the navigation's start: the first frame with the 10,000-call turn's first rows and
 * its timeline on screen (`tooltrace:shown`), and every row drawn (`tooltrace:complete`), as the page marks them.
 */
export async function viewerRender() {
  const page = await bigReport();
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
  const samples: number[] = [];
  const complete: number[] = [];
  try {
    for (let i = 0; i < SAMPLES + 1; i++) {
      const tab = await browser.newPage();
      await tab.goto(pathToFileURL(page).href);
      await tab.waitForSelector("body[data-complete=true]", { timeout: 30_000 });
      // The viewer's own marks, from the navigation's start: its first frame on screen, and its last row drawn.
      const marks = await tab.evaluate(() =>
        Object.fromEntries(performance.getEntriesByType("mark").map((mark) => [mark.name, mark.startTime])),
      );
      const rows = await tab.locator("main .call").count();
      if (rows !== CALLS) throw new Error(`the viewer drew ${rows} calls of ${CALLS}`);
      const shown = marks["tooltrace:shown"];
      const drawn = marks["tooltrace:complete"];
      if (shown === undefined || drawn === undefined) throw new Error("the viewer set no performance marks");
      if (i > 0) {
        samples.push(shown);
        complete.push(drawn);
      }
      await tab.close();
    }
  } finally {
    await browser.close();
    rmSync(dirname(page), { recursive: true, force: true });
  }
  return { samples, complete };
}

export function reportViewerRender(result: Awaited<ReturnType<typeof viewerRender>>): string {
  return [
    `viewer, a turn of ${CALLS.toLocaleString("en")} calls in headless Chromium: first rows and timeline on screen ${withSpread(result.samples, (ms) => formatMs(ms))} (aim: < 300 ms)`,
    `every row drawn: ${withSpread(result.complete, (ms) => formatMs(ms))} (aim: < 1 s)`,
  ].join("\n");
}
