import { execFileSync } from "node:child_process";
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { JestAsymmetricMatchers, JestChaiExpect, JestExtend, type ExpectStatic, GLOBAL_EXPECT, setState } from "@vitest/expect";
import { generateText, stepCountIs, tool, type LanguageModel, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import * as chai from "chai";
import { z } from "zod";
import { median, ratioWithSpread, withSpread } from "./stats.js";

/**
 * The 1,000-eval suite's eval (two turns, five scripted model calls, two tools, two stub rules, six matchers) in
 * a fresh process, as a Vitest fork runs a test file's first tests: the cost per eval while the code is cold
 * (the first 50, what a file of the suite runs) and once it is warm (evals 500 to 1,000), tooltrace against the same
 * eval on `MockLanguageModelV3` with plain `expect`. Vitest's `expect` is built the way Vitest builds it (chai
 * with `@vitest/expect`'s plugins), so tooltrace's matchers pay what `expect.extend` costs them in a test.
 */
const COLD = 50;
const WARM = 1_000;
const SAMPLES = 6;

const expect = ((value: unknown, message?: string) => chai.expect(value, message)) as unknown as ExpectStatic;

/** Vitest's `expect`, put together as Vitest does it: only in a sample's process, never in the bench's own. */
function installExpect(): void {
  chai.use(JestExtend);
  chai.use(JestChaiExpect);
  chai.use(JestAsymmetricMatchers);
  Object.assign(expect, chai.expect);
  (globalThis as Record<symbol, unknown>)[GLOBAL_EXPECT] = expect;
  setState({ assertionCalls: 0, isExpectingAssertions: false, testPath: "cold-eval", currentTestName: "eval" }, expect);
}

type Service = { list(status: string): Promise<object>; complete(id: string): Promise<object> };
const createTools = (service: Service) => ({
  list_tasks: tool({ inputSchema: z.object({ status: z.string() }), execute: ({ status }) => service.list(status) }),
  complete_task: tool({ inputSchema: z.object({ task_id: z.string() }), execute: ({ task_id }) => service.complete(task_id) }),
});
const unreachable: Service = {
  list: () => Promise.reject(new Error("no database")),
  complete: () => Promise.reject(new Error("no database")),
};

async function runAgent(model: LanguageModel, tools: ReturnType<typeof createTools>, history: ModelMessage[], message: string) {
  const user: ModelMessage = { role: "user", content: message };
  const result = await generateText({ model, tools, messages: [...history, user], stopWhen: stepCountIs(5) });
  history.push(user, ...result.response.messages);
  return result;
}

/** tooltrace, its matchers registered as `expect.extend` does: loaded only in the processes that measure it. */
async function loadTooltrace() {
  const [tooltrace, matchers] = await Promise.all([import("tooltrace"), import("tooltrace/matchers")]);
  (chai.expect as unknown as { extend(expect: ExpectStatic, matchers: object): void }).extend(expect, matchers);
  return tooltrace;
}

async function tooltraceEval(n: number, { createSession, mockModel }: Awaited<ReturnType<typeof loadTooltrace>>): Promise<void> {
  const tools = createTools(unreachable);
  const model = mockModel([
    { toolCalls: [{ name: "list_tasks", input: { status: "open" } }] },
    `You have: Task ${n}, Call mom.`,
    { toolCalls: [{ name: "complete_task", input: { task_id: `task-${n}` } }] },
    { toolCalls: [{ name: "list_tasks", input: { status: "open" } }] },
    "Done. Left: Call mom.",
  ]);
  const history: ModelMessage[] = [];
  const tasks = [
    { id: `task-${n}`, title: `Task ${n}` },
    { id: "mom", title: "Call mom" },
  ];
  const session = createSession({
    tools,
    agent: async (message) => (await runAgent(model, tools, history, message)).text,
    stubs: [
      {
        id: "list",
        tool: "list_tasks",
        match: { status: { enum: ["open", `open-${n}`] } },
        outcomes: [{ response: { tasks } }, { response: { tasks: tasks.slice(1) } }],
      },
      { id: "complete", tool: "complete_task", match: { task_id: { const: `task-${n}` } }, outcome: { response: { success: true } } },
    ],
  });
  const first = await session.send("What is open?");
  expect(first).toSucceed();
  expect(first).toHaveCalledTool("list_tasks", { count: 1 });
  expect(first).toHaveMessageIncluding(`Task ${n}`);
  const second = await session.send(`Complete task ${n}.`);
  expect(second).toHaveToolOrder(["complete_task", "list_tasks"]);
  expect(second).toHaveCalledTool("complete_task", { input: { task_id: `task-${n}` }, output: { success: true } });
  expect(second).toHaveMessageIncluding("Left: Call mom");
  session.close();
}

const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const call = (id: string, toolName: string, input: object): LanguageModelV3GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool-calls" },
  usage,
  warnings: [],
});
const text = (value: string): LanguageModelV3GenerateResult => ({
  content: [{ type: "text", text: value }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

async function bareEval(n: number): Promise<void> {
  const lists = [
    {
      tasks: [
        { id: `task-${n}`, title: `Task ${n}` },
        { id: "mom", title: "Call mom" },
      ],
    },
    { tasks: [{ id: "mom", title: "Call mom" }] },
  ];
  const completed: string[] = [];
  const tools = createTools({
    list: async (status) => {
      if (status !== "open" && status !== `open-${n}`) throw new Error(`unexpected status ${status}`);
      return lists.length > 1 ? (lists.shift() as object) : (lists[0] as object);
    },
    complete: async (id) => {
      if (id !== `task-${n}`) throw new Error(`unexpected task ${id}`);
      completed.push(id);
      return { success: true };
    },
  });
  const script = [
    call("call_1", "list_tasks", { status: "open" }),
    text(`You have: Task ${n}, Call mom.`),
    call("call_2", "complete_task", { task_id: `task-${n}` }),
    call("call_3", "list_tasks", { status: "open" }),
    text("Done. Left: Call mom."),
  ];
  const model = new MockLanguageModelV3({ doGenerate: async () => script.shift() as LanguageModelV3GenerateResult });
  const history: ModelMessage[] = [];
  const first = await runAgent(model, tools, history, "What is open?");
  expect(first.finishReason).toBe("stop");
  expect(first.steps.flatMap((step) => step.toolCalls).filter((c) => c.toolName === "list_tasks")).toHaveLength(1);
  expect(first.text).toContain(`Task ${n}`);
  const second = await runAgent(model, tools, history, `Complete task ${n}.`);
  const calls = second.steps.flatMap((step) => step.toolCalls);
  expect(calls.map((c) => c.toolName)).toEqual(["complete_task", "list_tasks"]);
  expect(calls[0]?.input).toEqual({ task_id: `task-${n}` });
  expect(completed).toEqual([`task-${n}`]);
  expect(second.text).toContain("Left: Call mom");
}

type Variant = "ours" | "baseline";
interface Sample {
  /** Milliseconds per eval over the first `COLD` evals of a fresh process. */
  readonly cold: number;
  /** Milliseconds per eval over the last half of `WARM` evals. */
  readonly warm: number;
}

export async function coldEval() {
  const results: Record<Variant, Sample[]> = { ours: [], baseline: [] };
  for (let i = 0; i < SAMPLES; i++) {
    const order = i % 2 === 0 ? (["ours", "baseline"] as const) : (["baseline", "ours"] as const);
    for (const variant of order)
      results[variant].push(JSON.parse(execFileSync(process.execPath, [import.meta.filename, variant], { encoding: "utf8" })) as Sample);
  }
  return results;
}

export function reportColdEval(result: Awaited<ReturnType<typeof coldEval>>): string {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const of = (variant: Variant, key: keyof Sample) => result[variant].map((sample) => sample[key]);
  const line = (key: keyof Sample, label: string) =>
    `${label}: ${withSpread(of("ours", key), ms)} against ${withSpread(of("baseline", key), ms)}, ` +
    `${ratioWithSpread(of("ours", key), of("baseline", key))} (+${(median(of("ours", key)) - median(of("baseline", key))).toFixed(2)} ms)`;
  return [
    "the suite's eval in a fresh process (a session, two turns, six matchers) against the bare AI SDK eval, per eval:",
    line("cold", `  the first ${COLD} (a test file's)`),
    line("warm", `  after ${WARM / 2} (warm)`),
  ].join("\n");
}

// A sample: `node cold-eval.js ours|baseline` prints the milliseconds per eval, cold and warm, as JSON.
const variant = process.argv[2];
if (process.argv[1] === import.meta.filename && (variant === "ours" || variant === "baseline")) {
  installExpect();
  const tooltrace = variant === "ours" ? await loadTooltrace() : undefined;
  const run = (n: number) => (tooltrace ? tooltraceEval(n, tooltrace) : bareEval(n));
  const elapsed = async (from: number, to: number) => {
    const started = process.hrtime.bigint();
    for (let n = from; n < to; n++) await run(n);
    return Number(process.hrtime.bigint() - started) / 1e6 / (to - from);
  };
  const cold = await elapsed(0, COLD);
  await elapsed(COLD, WARM / 2);
  const warm = await elapsed(WARM / 2, WARM);
  console.log(JSON.stringify({ cold, warm }));
}
