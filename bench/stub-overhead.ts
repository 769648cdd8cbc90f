import { createSession, type ToolStub } from "../src/index.js";
import { formatNs, median, sample } from "./stats.js";

const CALLS_PER_SAMPLE = 5_000;
const SAMPLES = 40;

/** 100 rules for the same tool; only the last one matches, so every call tries all 100 `match` schemas. */
const stubs: ToolStub[] = [
  ...Array.from({ length: 99 }, (_, i): ToolStub => ({ id: `miss-${i}`, tool: "complete_task", match: { task_id: { const: `other-${i}` } }, outcome: { response: { success: false } } })),
  { id: "hit", tool: "complete_task", match: { task_id: { type: "string", pattern: "^milk" } }, outcome: { response: true } },
];

/**
 * Per-call cost of a stubbed call through the whole path (tinyspy spy, async-context lookup, rule
 * selection over 100 rules, trace record) against calling the bare function.
 */
export async function stubOverhead() {
  const bare = (input: { task_id: string }) => input.task_id.length > 0;
  const baseline = await sample(SAMPLES, 5, CALLS_PER_SAMPLE, () => {
    let sink = 0;
    for (let i = 0; i < CALLS_PER_SAMPLE; i++) if (bare({ task_id: "milk" })) sink++;
    return sink;
  });

  const tools = { complete_task: (input: { task_id: string }) => input.task_id.length > 0 };
  const loop: number[] = [];
  const whole: number[] = [];
  for (let s = 0; s < SAMPLES + 5; s++) {
    const started = process.hrtime.bigint();
    let loopNs = 0;
    const session = createSession({
      tools,
      stubs,
      unusedRules: "ignore",
      agent: () => {
        const loopStarted = process.hrtime.bigint();
        for (let i = 0; i < CALLS_PER_SAMPLE; i++) tools.complete_task({ task_id: "milk" });
        loopNs = Number(process.hrtime.bigint() - loopStarted);
        return "";
      },
    });
    const turn = await session.send("go");
    session.close();
    if (turn.toolCalls.length !== CALLS_PER_SAMPLE || turn.toolCalls[0]?.answeredBy?.kind !== "stub") throw new Error("benchmark did not stub every call");
    if (s < 5) continue;
    loop.push(loopNs / CALLS_PER_SAMPLE);
    whole.push(Number(process.hrtime.bigint() - started) / CALLS_PER_SAMPLE);
  }
  return { baselineNs: median(baseline), stubbedNs: median(loop), wholeSessionNs: median(whole) };
}

export function reportStubOverhead(result: Awaited<ReturnType<typeof stubOverhead>>): string {
  return [
    `stubbed call (spy + 100 rules, last matches + trace record): median ${formatNs(result.stubbedNs)} per call`,
    `bare function call (baseline, same run):                    median ${formatNs(result.baselineNs)} per call`,
    `overhead ratio: ${(result.stubbedNs / result.baselineNs).toFixed(0)}x the bare call; absolute overhead ${formatNs(result.stubbedNs - result.baselineNs)}`,
    `(whole session incl. setup and 5,000 calls, per call: ${formatNs(result.wholeSessionNs)})`,
  ].join("\n");
}
