import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT, SCRIPT_HELPERS, scriptedModel } from "./generate.js";

/**
 * Generates a third variant of the suite in generate.ts: the same 1,000 evals written the way a user of
 * `vitest-evals` 0.16.1 writes them. One `describeEval` per file binds a harness (`createHarness`) around a
 * turn of the AI SDK agent; each turn is a `run(...)` that returns the AI SDK messages as the run's transcript,
 * the expected tool calls are checked with `ToolCallJudge` through `toSatisfyJudge`, tool results through the
 * `toolCalls` session helper, and the suite reports through `vitest-evals/reporter`. The model is scripted
 * with `MockLanguageModelV3` and the tools answer with canned data, as in the baseline: vitest-evals stubs
 * nothing. Writes `<root>/vitest-evals/` only (call it after `generateSuite`, which empties `root`), with a nameless
 * package.json of its own so its files are ESM wherever it is generated.
 */
export function generateVitestEvalsSuite(root: string, files = 20, testsPerFile = 50): void {
  const dir = join(root, "vitest-evals");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  writeFileSync(join(dir, "agent.ts"), AGENT);
  writeFileSync(join(dir, "vitest.config.ts"), CONFIG);
  for (let file = 0; file < files; file++) {
    const name = String(file).padStart(2, "0");
    const tests = Array.from({ length: testsPerFile }, (_, i) => evalTest(file * testsPerFile + i)).join("\n");
    writeFileSync(
      join(dir, `suite-${name}.eval.ts`),
      `${HEADER}\ndescribeEval("suite ${name}", { harness: taskAgent }, (it) => {\n${tests}});\n`,
    );
  }
}

/** vitest-evals needs no plugin or setup file; its users configure its reporter (a verbose reporter with scores). */
const CONFIG = `import { defineConfig } from "vitest/config";
export default defineConfig({ test: { root: import.meta.dirname, include: ["*.eval.ts"], reporters: ["vitest-evals/reporter"] } });
`;

/**
 * The harness takes one turn: the message and the test's agent (a closure over its model, tools and history, so the
 * conversation goes on across the test's two `run` calls). It returns the text as the output, the turn's messages
 * (the user's, then the AI SDK's response messages, whose tool-call and tool-result parts vitest-evals turns into
 * `tool_call` and `tool_result` events) as the transcript, the usage, and the finish reason as an artifact.
 */
const HEADER = `import { expect } from "vitest";
import { MockLanguageModelV3 } from "ai/test";
import type { ModelMessage } from "ai";
import { createHarness, describeEval, ToolCallJudge, toolCalls, type TranscriptMessageInput } from "vitest-evals";
import { createTools, runAgent, type Task } from "./agent.js";

${SCRIPT_HELPERS}
interface Turn { agent: (message: string) => ReturnType<typeof runAgent>; message: string }

const taskAgent = createHarness<Turn, string>({
  name: "task-agent",
  run: async ({ input, setArtifact }) => {
    const result = await input.agent(input.message);
    setArtifact("finishReason", result.finishReason);
    const user: TranscriptMessageInput = { role: "user", content: input.message };
    return {
      output: result.text,
      messages: [user, ...(result.response.messages as TranscriptMessageInput[])],
      usage: { provider: result.response.modelId, model: result.response.modelId, inputTokens: result.totalUsage.inputTokens, outputTokens: result.totalUsage.outputTokens, totalTokens: result.totalUsage.totalTokens },
    };
  },
});

/** The expected tool calls, exactly: in order, no others, arguments compared strictly. */
const toolJudge = ToolCallJudge({ ordered: true, allowExtras: false });
`;

function evalTest(n: number): string {
  return `  it("eval ${n}", async ({ run }) => {
    const lists: { tasks: Task[] }[] = [{ tasks: [{ id: "task-${n}", title: "Task ${n}" }, { id: "mom", title: "Call mom" }] }, { tasks: [{ id: "mom", title: "Call mom" }] }];
    const tools = createTools({
      list: async (status) => {
        if (status !== "open" && status !== "open-${n}") throw new Error("unexpected status " + status);
        return lists.length > 1 ? lists.shift()! : lists[0]!;
      },
      complete: async (id) => {
        if (id !== "task-${n}") throw new Error("unexpected task " + id);
        return { success: true };
      },
    });
${scriptedModel(n, "    ")}
    const history: ModelMessage[] = [];
    const agent = (message: string) => runAgent(model, tools, history, message);
    const first = await run({ agent, message: "What is open?" });
    expect(first.artifacts?.finishReason).toBe("stop");
    await expect(first).toSatisfyJudge(toolJudge, { expectedTools: [{ name: "list_tasks", arguments: { status: "open" } }] });
    expect(first.output).toContain("Task ${n}");
    const second = await run({ agent, message: "Complete task ${n}." });
    await expect(second).toSatisfyJudge(toolJudge, {
      expectedTools: [{ name: "complete_task", arguments: { task_id: "task-${n}" } }, { name: "list_tasks" }],
    });
    expect(toolCalls(second)[0]).toMatchObject({ name: "complete_task", status: "ok", result: { type: "json", value: { success: true } } });
    expect(second.output).toContain("Left: Call mom");
  });
`;
}
