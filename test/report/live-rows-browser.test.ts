import { expect, test } from "vitest";
import { launchChromium } from "../fixtures/chromium.js";
import { startViewerServer } from "../../src/report/live-server.js";
import { type ReportData, type ReportTest, reportData } from "../../src/report/report-data.js";
import { viewerHtml } from "../../src/report/viewer-html.js";
import { TRACE_FORMAT_VERSION } from "../../src/trace/turn-json.js";

/** A test whose one turn made `calls` tool calls: enough rows for its page to scroll. */
function withCalls(test: ReportTest, calls: number): ReportTest {
  const toolCalls = Array.from({ length: calls }, (_, i) => ({
    seq: i + 1,
    kind: "tool",
    turnIndex: 0,
    status: "completed",
    answeredBy: { kind: "stub", ruleId: "hit", outcomeIndex: 0 },
    start: i,
    end: i + 1,
    durationMs: 1,
    id: `call_${i}`,
    tool: "search",
    path: [],
    qualifiedName: "search",
    input: { q: i },
    output: { hits: ["a"] },
  }));
  const turn = {
    version: TRACE_FORMAT_VERSION,
    index: 0,
    userMessage: "search",
    status: "completed",
    text: "done",
    assistantTexts: ["done"],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    results: {},
    toolCalls,
    modelCalls: [],
    judgeCalls: [],
    httpCalls: [],
    tools: ["search"],
    violations: [],
    startedAt: 0,
    durationMs: calls,
  };
  const session = { name: "agent", strict: false, turns: [turn], tools: {}, unusedRuleIds: [], violations: [] };
  return { ...test, meta: { version: TRACE_FORMAT_VERSION, sessions: [session] } } as unknown as ReportTest;
}

const row = (id: string, file: string, fullName: string, state: ReportTest["state"] = "passed"): ReportTest => ({
  id,
  file,
  fullName,
  state,
  errors: [],
});

test("a live update patches the list row by row: one row changes, the others stay the same nodes, the open test stays open and scrolled (headless Chromium)", async () => {
  const tests = [
    row("a1", "a.eval.ts", "alpha one"),
    withCalls(row("a2", "a.eval.ts", "alpha two"), 80),
    row("b1", "b.eval.ts", "beta one"),
    row("b2", "b.eval.ts", "beta two", "failed"),
  ];
  let current: ReportData = reportData(tests);
  const server = await startViewerServer({
    page: (token) => viewerHtml(current, { token, rerun: false }),
    snapshot: () => current,
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 500 } });
    await page.goto(`${server.url}#test=a2`);
    await page.waitForSelector("body[data-live=true]");
    await page.waitForSelector("body[data-complete=true]");
    const rowsNow = () => page.locator("#tests li").evaluateAll((items) => items.map((item) => item.textContent?.replace(/\u21bb.*/, "")));
    expect(await rowsNow()).toEqual(["a.eval.ts", "\u2713alpha one", "\u2713alpha two", "b.eval.ts", "\u2713beta one", "\u2717beta two"]);
    // The rows, the open test's header and a call row of it, kept to compare after the update; the open test scrolled.
    await page.evaluate(() => {
      const main = document.getElementById("main") as HTMLElement;
      main.scrollTop = 400;
      const kept = window as unknown as Record<string, unknown>;
      kept.rows = Array.from(document.querySelectorAll("#tests li"));
      kept.header = document.querySelector("main .header");
      kept.call = document.getElementById("call-40");
    });
    const same = () =>
      page.evaluate(() => {
        const kept = window as unknown as { rows: Element[]; header: Element; call: Element };
        const now = Array.from(document.querySelectorAll("#tests li"));
        return {
          rows: kept.rows.map((item) => now.includes(item)),
          header: kept.header === document.querySelector("main .header"),
          call: kept.call === document.getElementById("call-40"),
          scrollTop: (document.getElementById("main") as HTMLElement).scrollTop,
          selected: document.querySelector("#tests li.selected")?.getAttribute("data-test"),
        };
      });

    // beta one fails: its row alone is new; the open test is the same page, at the same place.
    current = reportData(
      [tests[0], tests[1], tests[2], tests[3]].map((t) => (t?.id === "b1" ? { ...t, state: "failed" as const } : t)) as ReportTest[],
    );
    server.push("tests", [{ ...tests[2], state: "failed" }]);
    await expect.poll(() => page.locator('li[data-test="b1"]').getAttribute("class")).toContain("failed");
    expect(await same()).toEqual({ rows: [true, true, true, true, false, true], header: true, call: true, scrollTop: 400, selected: "a2" });

    // A running mark for a test the page has, and a new test of file a: the other rows stay.
    server.push("tests", [{ id: "a1", mark: "running" }, row("a3", "a.eval.ts", "alpha three")]);
    await expect.poll(() => page.locator('li[data-test="a1"]').getAttribute("class")).toContain("running");
    expect((await rowsNow())[3]).toBe("\u2713alpha three");
    expect(await same()).toMatchObject({ rows: [true, false, true, true, false, true], header: true, call: true, scrollTop: 400 });

    // Search and the filters still choose the rows; the rows they keep are the same nodes.
    await page.fill("#search", "beta");
    await expect.poll(rowsNow).toEqual(["b.eval.ts", "\u2717beta one", "\u2717beta two"]);
    expect((await same()).rows).toEqual([false, false, false, true, false, true]);
    await page.fill("#search", "");
    await page.click("[data-filter=failed]");
    await expect.poll(rowsNow).toEqual(["b.eval.ts", "\u2717beta one", "\u2717beta two"]);
    await page.click("[data-filter=all]");
    await expect
      .poll(rowsNow)
      .toEqual(["a.eval.ts", "\u2713alpha one", "\u2713alpha two", "\u2713alpha three", "b.eval.ts", "\u2717beta one", "\u2717beta two"]);
    expect(await page.locator("#count").textContent()).toBe("5 of 5 tests");

    // A click on another test opens it and moves the selection.
    await page.click('li[data-test="b2"]');
    await expect.poll(() => page.locator("main .header h1").textContent()).toBe("beta two");
    expect((await same()).selected).toBe("b2");
    expect(await page.locator("#tests li.selected").count()).toBe(1);

    // A large test's result with its first calls: the open page says the rest are coming; the whole test replaces it.
    const large = withCalls(row("b2", "b.eval.ts", "beta two", "failed"), 80);
    const first = withCalls(row("b2", "b.eval.ts", "beta two", "failed"), 10);
    server.push("tests", [{ ...first, partial: { shown: 10, calls: 80 } }]);
    await expect
      .poll(() => page.locator("main .header .partial").textContent())
      .toBe("The first 10 of 80 calls: the rest are on their way\u2026");
    expect(await page.locator("main .call").count()).toBe(10);
    server.push("whole", large);
    await expect.poll(() => page.locator("main .call").count()).toBe(80);
    expect(await page.locator("main .header .partial").count()).toBe(0);
  } finally {
    await browser.close();
    await server.close();
  }
}, 60_000);
