import { request } from "node:http";
import { expect, test } from "vitest";
import { type LiveCase, LiveViewer } from "../../src/report/live-viewer.js";
import { reportTest } from "../../src/report/report-data.js";
import { TRACE_FORMAT_VERSION } from "../../src/trace/turn-json.js";

const nonce = Math.random().toString(36).slice(2, 8);
const planted = [`plant1x${nonce}Q`, `plant2x${nonce}Q`, `plant3x${nonce}Q`, `sk-proj-${nonce}Kf0Aa1Bb2Cc3Dd4Ee5Ff6`];

/** A test case whose two turns made 1,000 tool calls, 150 model calls and 50 HTTP calls, secrets planted in every kind. */
function largeCase(): LiveCase {
  let seq = 0;
  const tool = (i: number) => ({
    seq: ++seq,
    kind: "tool",
    tool: "search",
    status: "completed",
    input: { q: i, apiKey: planted[0] },
    output: `found with ${planted[3]}`,
  });
  const model = () => ({
    seq: ++seq,
    kind: "model",
    status: "completed",
    request: { headers: { authorization: `Bearer ${planted[1]}` } },
    reply: { text: "ok", toolCalls: [] },
  });
  const http = () => ({
    seq: ++seq,
    kind: "http",
    status: "completed",
    method: "GET",
    url: `http://127.0.0.1/?token=${planted[2]}`,
    statusCode: 200,
  });
  const turn = (index: number, calls: object[], models: object[], https: object[]) => ({
    version: TRACE_FORMAT_VERSION,
    index,
    userMessage: `turn ${index}`,
    status: "completed",
    text: "done",
    assistantTexts: ["done"],
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    results: {},
    toolCalls: calls,
    modelCalls: models,
    judgeCalls: [],
    httpCalls: https,
    tools: ["search"],
    violations: [],
    startedAt: 0,
    durationMs: 1,
  });
  const first = turn(
    0,
    Array.from({ length: 600 }, (_, i) => tool(i)),
    Array.from({ length: 150 }, model),
    [],
  );
  const second = turn(
    1,
    Array.from({ length: 400 }, (_, i) => tool(i)),
    [],
    Array.from({ length: 50 }, http),
  );
  const meta = {
    version: TRACE_FORMAT_VERSION,
    sessions: [{ name: "agent", strict: false, turns: [first, second], tools: {}, unusedRuleIds: [], violations: [] }],
  };
  return {
    id: "large",
    name: "large",
    fullName: "large",
    module: { moduleId: "/project/large.eval.ts", project: { config: { root: "/project" } } },
    meta: () => ({ tooltrace: meta }),
    result: () => ({ state: "passed" }),
    diagnostic: () => ({ duration: 5 }),
  };
}

interface Sent {
  readonly event: string;
  readonly data: string;
}

/** A GET from the served viewer, as its page makes it: the text so far, as it arrives, and its end. */
function get(url: string, path: string): Promise<{ text: () => string; close: () => void }> {
  const { host, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path, headers: { host } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      resolve({ text: () => text, close: () => response.destroy() });
    });
    sent.on("error", reject);
    sent.end();
  });
}

/** The events a stream's text holds so far. */
function eventsIn(raw: string): Sent[] {
  return raw
    .split("\n\n")
    .slice(0, -1)
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1] ?? "", data: /^data: (.*)$/m.exec(block)?.[1] ?? "" }));
}

test("a large test reaches the page in two steps: its result with its first calls at once, then its whole trace, redacted as one pass would", async () => {
  const live = await LiveViewer.start({}, undefined, false);
  const page = await get(live.url, "/");
  await expect.poll(() => /"token":"([0-9a-f]+)"/.exec(page.text())?.[1]).toBeDefined();
  const token = /"token":"([0-9a-f]+)"/.exec(page.text())?.[1] ?? "";
  const stream = await get(live.url, `/events?token=${token}`);
  const events = () => eventsIn(stream.text());
  try {
    await expect.poll(() => events().length).toBe(1);
    const testCase = largeCase();
    live.runStarted();
    live.started(testCase);
    live.finished(testCase, undefined);
    await expect.poll(() => events().map((e) => e.event)).toEqual(["report", "tests", "whole"]);
    const [, first, whole] = events().map((e) => JSON.parse(e.data));
    // Started and finished in one turn: one item, the result, with the first 100 of its 1,200 calls.
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ id: "large", state: "passed", partial: { shown: 100, calls: 1200 } });
    expect(first[0].running).toBeUndefined();
    const [turn0, turn1] = first[0].meta.sessions[0].turns;
    expect(turn0.toolCalls.length + turn0.modelCalls.length).toBe(100);
    expect(turn1.toolCalls).toEqual([]);
    expect(Math.max(...[...turn0.toolCalls, ...turn0.modelCalls].map((call: { seq: number }) => call.seq))).toBe(100);
    // The whole test, as one redaction of it reads: no planted secret in any byte sent.
    expect(whole).toEqual(JSON.parse(JSON.stringify(reportTest(testCase))));
    expect(whole.partial).toBeUndefined();
    expect(stream.text()).toContain("[redacted]");
    for (const value of planted) expect(stream.text()).not.toContain(value);

    // Started again: the page has the test, so it gets the mark alone, not the trace again.
    live.started(testCase);
    await expect.poll(() => events().length).toBe(4);
    expect(JSON.parse(events()[3]?.data ?? "")).toEqual([{ id: "large", mark: "running" }]);
  } finally {
    page.close();
    stream.close();
    await live.close();
  }
});
