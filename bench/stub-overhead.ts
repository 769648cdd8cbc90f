import { createSession, type ToolStub } from "tooltrace";
import { formatNs, median, ratioWithSpread, withSpread } from "./stats.js";

const CALLS_PER_SAMPLE = 5_000;
const SAMPLES = 40;
const WARMUP = 5;

/**
 * 100 realistic rules for one tool: 99 misses that each need a different kind of check (a `pattern` on the
 * query, a nested `properties` object, an `enum`), then the rule that matches, combining all three. Every
 * call tries all 100.
 */
export const realisticRules: ToolStub[] = [
  ...Array.from({ length: 99 }, (_, i): ToolStub => {
    const outcome = { response: { tasks: [] } };
    if (i % 3 === 0)
      return { id: `query-${i}`, tool: "search_tasks", match: { query: { type: "string", pattern: `^order-${i}\\b` } }, outcome };
    if (i % 3 === 1)
      return {
        id: `filter-${i}`,
        tool: "search_tasks",
        match: { filter: { type: "object", properties: { status: { const: `status-${i}` } }, required: ["status"] } },
        outcome,
      };
    return { id: `priority-${i}`, tool: "search_tasks", match: { priority: { enum: [`p${i}`, `q${i}`] } }, outcome };
  }),
  {
    id: "hit",
    tool: "search_tasks",
    match: {
      query: { type: "string", pattern: "^milk\\b" },
      filter: { type: "object", properties: { status: { enum: ["open", "done"] } }, required: ["status"] },
      priority: { enum: ["high", "low"] },
    },
    outcome: { response: { tasks: ["Buy milk"] } },
  },
];

const input = { query: "milk and eggs", filter: { status: "open" }, priority: "high" };

/** Per-call nanoseconds of `calls` calls made by one session's agent, and the session's first answer. */
async function loop(stubs: readonly ToolStub[]): Promise<{ ns: number; answeredBy: string | undefined }> {
  const tools = { search_tasks: (query: typeof input) => ({ tasks: [query.query] }) };
  let ns = 0;
  const session = createSession({
    tools,
    stubs,
    unusedRules: "ignore",
    agent: () => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < CALLS_PER_SAMPLE; i++) tools.search_tasks(input);
      ns = Number(process.hrtime.bigint() - started) / CALLS_PER_SAMPLE;
      return "";
    },
  });
  const turn = await session.send("go");
  session.close();
  return { ns, answeredBy: turn.toolCalls[0]?.answeredBy?.kind };
}

/**
 * A stubbed call through the whole path (the patched executor, async-context lookup, the chain, 100 rules, the log
 * record) against the same call in the same kind of session with no rules (the real function answers), and
 * against the bare function. Samples alternate (ABBA) so drift hits all alike.
 */
export async function stubOverhead() {
  const bare = (query: typeof input) => query.query.length;
  const stubbed: number[] = [];
  const noRules: number[] = [];
  const bareSamples: number[] = [];
  for (let s = 0; s < SAMPLES + WARMUP; s++) {
    const order = s % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
    const results: number[] = [];
    for (const which of order) {
      if (which === 0) {
        const result = await loop(realisticRules);
        if (result.answeredBy !== "stub") throw new Error("the benchmark's last rule did not answer");
        results[0] = result.ns;
      } else if (which === 1) {
        results[1] = (await loop([])).ns;
      } else {
        const started = process.hrtime.bigint();
        let sink = 0;
        for (let i = 0; i < CALLS_PER_SAMPLE; i++) sink += bare(input);
        results[2] = Number(process.hrtime.bigint() - started) / CALLS_PER_SAMPLE + sink * 0;
      }
    }
    if (s < WARMUP) continue;
    stubbed.push(results[0] as number);
    noRules.push(results[1] as number);
    bareSamples.push(results[2] as number);
  }
  return { stubbed, noRules, bare: bareSamples };
}

export function reportStubOverhead(result: Awaited<ReturnType<typeof stubOverhead>>): string {
  return [
    `stubbed call, 100 realistic rules (last matches), whole path: median ${withSpread(result.stubbed, formatNs)} per call`,
    `same session path, no rules (the real function answers):    median ${withSpread(result.noRules, formatNs)} per call (baseline, same run)`,
    `bare function call:                                          median ${withSpread(result.bare, formatNs)} per call`,
    `100 rules cost ${formatNs(median(result.stubbed) - median(result.noRules))} over the rule-free path (${ratioWithSpread(result.stubbed, result.noRules)})`,
  ].join("\n");
}
