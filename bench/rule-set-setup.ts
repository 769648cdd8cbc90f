import { createRuleSet, type ToolStub } from "tooltrace";
import { formatNs, interleaved, ratioWithSpread, withSpread } from "./stats.js";

const SETS_PER_SAMPLE = 200;
const SAMPLES = 20;
const WARMUP = 2;
const knownTools = new Set(["list_tasks", "complete_task"]);
let distinct = 0;

/** The suite's two rules (`bench/suite`), with `n` in their values as each of its evals has. */
function suiteRules(n: number): ToolStub[] {
  const tasks = [{ id: "mom", title: "Call mom" }];
  return [
    {
      id: "list",
      tool: "list_tasks",
      match: { status: { enum: ["open", `open-${n}`] } },
      outcomes: [{ response: { tasks: [{ id: `task-${n}`, title: `Task ${n}` }, ...tasks] } }, { response: { tasks } }],
    },
    { id: "complete", tool: "complete_task", match: { task_id: { const: `task-${n}` } }, outcome: { response: { success: true } } },
  ];
}

/**
 * A session's rule set built from rules that every test shares (the same JSON: validated and compiled once
 * per worker) against rules that differ in every test (validated and compiled each time). ABBA.
 */
export async function ruleSetSetup() {
  const same = suiteRules(0);
  return interleaved(SAMPLES, WARMUP, async (shared) => {
    const lists = Array.from({ length: SETS_PER_SAMPLE }, () => (shared ? same : suiteRules(++distinct)));
    const started = process.hrtime.bigint();
    for (const stubs of lists) createRuleSet(stubs, { knownTools });
    return Number(process.hrtime.bigint() - started) / SETS_PER_SAMPLE;
  });
}

export function reportRuleSetSetup(result: Awaited<ReturnType<typeof ruleSetSetup>>): string {
  return [
    `rule set of the suite's two rules, shared by every test: median ${withSpread(result.ours, formatNs)} per session`,
    `the same two rules, different in every test:            median ${withSpread(result.baseline, formatNs)} (baseline)`,
    `shared rules cost ${ratioWithSpread(result.ours, result.baseline)} of rules compiled afresh`,
  ].join("\n");
}
