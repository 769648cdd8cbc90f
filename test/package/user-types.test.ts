import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { projectInstalled, projectWithPackage, writeStrictTsconfig } from "../fixtures/installed-project.js";
import { typeCheckTogether } from "../fixtures/type-check.js";

/**
 * A user's project with the built package installed, a plain `strict` tsconfig and `skipLibCheck: false`:
 * the README's typed rule array (rules with different `match` keys) given to `createSession`, a matcher,
 * and the AI SDK mock model. Before: TS2322 (`undefined` is not assignable to `MatchSchema`) and TS2320
 * (`ExpectStatic` cannot extend both `Matchers` and `AsymmetricMatchersContaining`).
 */
const README_EVAL = `import { expect, test } from "vitest";
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
`;

/**
 * The YAML evals' agent module as the README writes it: `defineEvalAgent` given an AI SDK agent (whose
 * history is `ModelMessage[]`). Before: TS2322, `Agent<ModelMessage>` is not assignable to `Agent<unknown>`.
 */
const EVAL_AGENT = `import { tool } from "ai";
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
`;

/** A user's project with the built package installed, a plain `strict` tsconfig and `skipLibCheck: false`. */
function strictProject(name: string, file: string, text: string): string {
  const project = projectWithPackage(name);
  writeStrictTsconfig(project, { include: ["*.ts"], skipLibCheck: false });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user", type: "module", private: true }));
  writeFileSync(join(project, file), text);
  return project;
}

// Both projects checked by one tsc (each a program of its own): checking the libraries' declarations twice
// in two processes took twice the CPU.
let checked: Promise<{ readme: string; agent: string }> | undefined;
function typeChecked(): Promise<{ readme: string; agent: string }> {
  checked ??= (async () => {
    const readme = strictProject("types", "todo.eval.ts", README_EVAL);
    const agent = strictProject("eval-agent-types", "flight-agent.ts", EVAL_AGENT);
    const diagnosticsOf = await typeCheckTogether([readme, agent]);
    return { readme: diagnosticsOf(readme), agent: diagnosticsOf(agent) };
  })();
  return checked;
}

test.skipIf(!projectInstalled)(
  "the README's eval type-checks under strict with skipLibCheck off (Vitest 4)",
  { timeout: 120_000 },
  async () => {
    expect((await typeChecked()).readme).toBe("");
  },
);

test.skipIf(!projectInstalled)(
  "defineEvalAgent takes an AI SDK agent under strict with skipLibCheck off",
  { timeout: 120_000 },
  async () => {
    expect((await typeChecked()).agent).toBe("");
  },
);
