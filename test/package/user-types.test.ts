import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { projectInstalled, projectWithPackage, writeStrictTsconfig } from "../fixtures/installed-project.js";
import { expect, test } from "vitest";

const root = join(import.meta.dirname, "../..");

/**
 * A user's project with the built package installed, a plain `strict` tsconfig and `skipLibCheck: false`:
 * the README's typed rule array (rules with different `match` keys) given to `createSession`, a matcher,
 * and the AI SDK mock model. Before: TS2322 (`undefined` is not assignable to `MatchSchema`) and TS2320
 * (`ExpectStatic` cannot extend both `Matchers` and `AsymmetricMatchersContaining`).
 */
test.skipIf(!projectInstalled)(
  "the README's eval type-checks under strict with skipLibCheck off (Vitest 4)",
  { timeout: 120_000 },
  async () => {
    const project = projectWithPackage("types");
    writeStrictTsconfig(project, { include: ["*.ts"], skipLibCheck: false });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user", type: "module", private: true }));
    writeFileSync(
      join(project, "todo.eval.ts"),
      `import { expect, test } from "vitest";
import { createSession, mockModel, type ToolStub } from "tooltrace";

const stubs = [
  { id: "tasks", tool: "list_tasks", match: { status: { const: "open" } }, outcome: { response: { tasks: [] } } },
  { id: "done", tool: "complete_task", match: { task_id: { const: "milk" } }, outcome: { response: { ok: true } } },
] satisfies readonly ToolStub[];
const tools = { list_tasks: async (_: { status: string }) => [], complete_task: async (_: { task_id: string }) => ({}) };
export const model = mockModel(["Done."]);

test("completes the task", async () => {
  const turn = await createSession({ tools, stubs, agent: () => "hi" }).send("Complete milk");
  expect(turn).toHaveCalledTool("complete_task", { input: { task_id: "milk" } });
  expect(turn).toHaveToolOrder(["list_tasks", "complete_task"]);
});
`,
    );
    const run = await promisify(execFile)(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project]).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(`${run.stdout}${run.stderr}`).toBe("");
  },
);

/**
 * The YAML evals' agent module as the README writes it: `defineEvalAgent` given an AI SDK agent (whose
 * history is `ModelMessage[]`). Before: TS2322, `Agent<ModelMessage>` is not assignable to `Agent<unknown>`.
 */
test.skipIf(!projectInstalled)(
  "defineEvalAgent takes an AI SDK agent under strict with skipLibCheck off",
  { timeout: 120_000 },
  async () => {
    const project = projectWithPackage("eval-agent-types");
    writeStrictTsconfig(project, { include: ["*.ts"], skipLibCheck: false });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user", type: "module", private: true }));
    writeFileSync(
      join(project, "flight-agent.ts"),
      `import { tool } from "ai";
import { z } from "zod";
import { defineEvalAgent, mockModel } from "tooltrace";
import { aiSdkAgent } from "tooltrace/ai-sdk";

const tools = {
  search_flights: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => [{ id: "FL1", to }] }),
};

export default defineEvalAgent(({ seed }) => ({
  agent: aiSdkAgent({ model: mockModel([{ toolCalls: [{ name: "search_flights", input: { to: "Paris" } }] }, \`Seed \${seed}: FL1.\`]), tools }),
  tools,
}));
`,
    );
    const run = await promisify(execFile)(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project]).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(`${run.stdout}${run.stderr}`).toBe("");
  },
);
