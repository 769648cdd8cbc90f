import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Generates the same eval suite twice: once on tooltrace (sessions, stubs, mockModel, the plugin's
 * matchers) and once the way it is written without it (tools whose executors return canned data,
 * `MockLanguageModelV3` scripts, plain `expect`). Each test: two turns of an AI SDK agent, five scripted
 * model calls, two tools, two stub rules with matches no other test shares, a handful of assertions.
 */
export function generateSuite(root: string, files = 20, testsPerFile = 50): void {
  rmSync(root, { recursive: true, force: true });
  // tooltrace as a user has it: the built package in node_modules, which Vitest loads without transforming.
  const installed = join(root, "node_modules", "tooltrace");
  const project = join(import.meta.dirname, "..", "..", "..");
  mkdirSync(installed, { recursive: true });
  cpSync(join(project, "package.json"), join(installed, "package.json"));
  for (const folder of ["dist", "src", "matchers"]) cpSync(join(project, folder), join(installed, folder), { recursive: true });
  // Its own package scope, so `tooltrace` resolves to node_modules and not to this repository by self-reference.
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "tooltrace-suite-bench", private: true, type: "module" }));
  for (const variant of ["tooltrace", "baseline"] as const) {
    const dir = join(root, variant);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "agent.ts"), AGENT);
    writeFileSync(join(dir, "vitest.config.ts"), variant === "tooltrace" ? TOOLTRACE_CONFIG : BASELINE_CONFIG);
    for (let file = 0; file < files; file++) {
      const tests = Array.from({ length: testsPerFile }, (_, i) =>
        (variant === "tooltrace" ? tooltraceTest : baselineTest)(file * testsPerFile + i),
      ).join("\n");
      writeFileSync(
        join(dir, `suite-${String(file).padStart(2, "0")}.eval.ts`),
        `${variant === "tooltrace" ? TOOLTRACE_HEADER : BASELINE_HEADER}\n${tests}`,
      );
    }
  }
}

/** The agent every variant of the suite runs: its tools, the service they would reach, one turn over `generateText`. */
export const AGENT = `import { generateText, stepCountIs, tool, type LanguageModel, type ModelMessage } from "ai";
import { z } from "zod";

export interface Task { id: string; title: string }

/** The agent's real tools over a task service. */
export function createTools(service: { list(status: string): Promise<{ tasks: Task[] }>; complete(id: string): Promise<{ success: boolean }> }) {
  return {
    list_tasks: tool({ description: "List tasks.", inputSchema: z.object({ status: z.string() }), execute: ({ status }) => service.list(status) }),
    complete_task: tool({ description: "Complete a task.", inputSchema: z.object({ task_id: z.string() }), execute: ({ task_id }) => service.complete(task_id) }),
  };
}

/** A service that would reach a database; the evals never let it run. */
export const realService = {
  list: async (): Promise<{ tasks: Task[] }> => { throw new Error("database not reachable in tests"); },
  complete: async (): Promise<{ success: boolean }> => { throw new Error("database not reachable in tests"); },
};

/** One turn of the agent: the AI SDK tool loop over the history. */
export async function runAgent(model: LanguageModel, tools: ReturnType<typeof createTools>, history: ModelMessage[], message: string) {
  const user: ModelMessage = { role: "user", content: message };
  const result = await generateText({ model, tools, messages: [...history, user], stopWhen: stepCountIs(5) });
  history.push(user, ...result.response.messages);
  return result;
}
`;

/**
 * The same 1,000 evals in one test file per variant, run in one worker, with the heap measured (after a full
 * garbage collection) before the first test and after the last: what a long file keeps of its tests.
 */
export function generateHeapSuite(root: string, tests = 1000): void {
  for (const variant of ["tooltrace", "baseline"] as const) {
    const dir = join(root, `heap-${variant}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "agent.ts"), AGENT);
    writeFileSync(join(dir, "vitest.config.ts"), variant === "tooltrace" ? TOOLTRACE_CONFIG : BASELINE_CONFIG);
    const body = Array.from({ length: tests }, (_, i) => (variant === "tooltrace" ? tooltraceTest : baselineTest)(i)).join("\n");
    writeFileSync(join(dir, "heap.eval.ts"), `${variant === "tooltrace" ? TOOLTRACE_HEADER : BASELINE_HEADER}${HEAP_PROBE}\n${body}`);
  }
}

const HEAP_PROBE = `import { afterAll, beforeAll } from "vitest";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
let before = 0;
beforeAll(() => { before = heap(); });
afterAll(() => { process.stdout.write("HEAP_GROWTH " + (heap() - before) + "\\n"); });
`;

const TOOLTRACE_CONFIG = `import { defineConfig } from "vitest/config";
import { tooltrace } from "tooltrace/vitest";
export default defineConfig({ plugins: [tooltrace()], test: { root: import.meta.dirname, include: ["*.eval.ts"] } });
`;

const BASELINE_CONFIG = `import { defineConfig } from "vitest/config";
export default defineConfig({ test: { root: import.meta.dirname, include: ["*.eval.ts"] } });
`;

const TOOLTRACE_HEADER = `import { expect, test } from "vitest";
import { createSession, mockModel } from "tooltrace";
import { createTools, realService, runAgent } from "./agent.js";
import type { ModelMessage } from "ai";
`;

/** What the suites that script \`MockLanguageModelV3\` build their replies with: usage, a tool call, a text. */
export const SCRIPT_HELPERS = `const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const call = (id: string, toolName: string, input: object) => ({ content: [{ type: "tool-call" as const, toolCallId: id, toolName, input: JSON.stringify(input) }], finishReason: { unified: "tool-calls" as const, raw: "tool-calls" }, usage, warnings: [] });
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }], finishReason: { unified: "stop" as const, raw: "stop" }, usage, warnings: [] });
`;

/** The five model calls of eval \`n\` as the bare suites script them, and the model over them, indented for its place. */
export function scriptedModel(n: number, indent: string): string {
  return [
    "const script = [",
    '  call("call_1", "list_tasks", { status: "open" }),',
    `  text("You have: Task ${n}, Call mom."),`,
    `  call("call_2", "complete_task", { task_id: "task-${n}" }),`,
    '  call("call_3", "list_tasks", { status: "open" }),',
    '  text("Done. Left: Call mom."),',
    "];",
    "const model = new MockLanguageModelV3({ doGenerate: async () => script.shift()! });",
  ]
    .map((line) => indent + line)
    .join("\n");
}

const BASELINE_HEADER = `import { expect, test } from "vitest";
import { MockLanguageModelV3 } from "ai/test";
import { createTools, runAgent, type Task } from "./agent.js";
import type { ModelMessage } from "ai";

${SCRIPT_HELPERS}`;

function tooltraceTest(n: number): string {
  return `test("eval ${n}", async () => {
  const tools = createTools(realService);
  const model = mockModel([
    { toolCalls: [{ name: "list_tasks", input: { status: "open" } }] },
    "You have: Task ${n}, Call mom.",
    { toolCalls: [{ name: "complete_task", input: { task_id: "task-${n}" } }] },
    { toolCalls: [{ name: "list_tasks", input: { status: "open" } }] },
    "Done. Left: Call mom.",
  ]);
  const history: ModelMessage[] = [];
  const session = createSession({
    tools,
    agent: async (message) => (await runAgent(model, tools, history, message)).text,
    stubs: [
      { id: "list", tool: "list_tasks", match: { status: { enum: ["open", "open-${n}"] } }, outcomes: [{ response: { tasks: [{ id: "task-${n}", title: "Task ${n}" }, { id: "mom", title: "Call mom" }] } }, { response: { tasks: [{ id: "mom", title: "Call mom" }] } }] },
      { id: "complete", tool: "complete_task", match: { task_id: { const: "task-${n}" } }, outcome: { response: { success: true } } },
    ],
  });
  const first = await session.send("What is open?");
  expect(first).toSucceed();
  expect(first).toHaveCalledTool("list_tasks", { count: 1 });
  expect(first).toHaveMessageIncluding("Task ${n}");
  const second = await session.send("Complete task ${n}.");
  expect(second).toHaveToolOrder(["complete_task", "list_tasks"]);
  expect(second).toHaveCalledTool("complete_task", { input: { task_id: "task-${n}" }, output: { success: true } });
  expect(second).toHaveMessageIncluding("Left: Call mom");
});
`;
}

function baselineTest(n: number): string {
  return `test("eval ${n}", async () => {
  const lists: { tasks: Task[] }[] = [{ tasks: [{ id: "task-${n}", title: "Task ${n}" }, { id: "mom", title: "Call mom" }] }, { tasks: [{ id: "mom", title: "Call mom" }] }];
  const completed: string[] = [];
  const tools = createTools({
    list: async (status) => {
      if (status !== "open" && status !== "open-${n}") throw new Error("unexpected status " + status);
      return lists.length > 1 ? lists.shift()! : lists[0]!;
    },
    complete: async (id) => {
      if (id !== "task-${n}") throw new Error("unexpected task " + id);
      completed.push(id);
      return { success: true };
    },
  });
${scriptedModel(n, "  ")}
  const history: ModelMessage[] = [];
  const first = await runAgent(model, tools, history, "What is open?");
  expect(first.finishReason).toBe("stop");
  expect(first.steps.flatMap((step) => step.toolCalls).filter((c) => c.toolName === "list_tasks")).toHaveLength(1);
  expect(first.text).toContain("Task ${n}");
  const second = await runAgent(model, tools, history, "Complete task ${n}.");
  const calls = second.steps.flatMap((step) => step.toolCalls);
  expect(calls.map((c) => c.toolName)).toEqual(["complete_task", "list_tasks"]);
  expect(calls[0]?.input).toEqual({ task_id: "task-${n}" });
  expect(completed).toEqual(["task-${n}"]);
  expect(second.text).toContain("Left: Call mom");
});
`;
}
