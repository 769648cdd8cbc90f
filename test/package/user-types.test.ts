import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const root = join(import.meta.dirname, "../..");
// The project's own install: a compatibility run (`npm run test:matrix`) works on a copy without one.
const installed = existsSync(join(root, "node_modules", "vitest"));

/**
 * A user's project with the built package installed, a plain `strict` tsconfig and `skipLibCheck: false`:
 * the README's typed rule array (rules with different `match` keys) given to `createSession`, a matcher,
 * and the AI SDK mock model. Before: TS2322 (`undefined` is not assignable to `MatchSchema`) and TS2320
 * (`ExpectStatic` cannot extend both `Matchers` and `AsymmetricMatchersContaining`).
 */
test.skipIf(!installed)("the README's eval type-checks under strict with skipLibCheck off (Vitest 4)", { timeout: 120_000 }, async () => {
  const project = mkdtempSync(join(tmpdir(), "tooltrace-types-"));
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "tooltrace"), { recursive: true });
  cpSync(join(root, "dist"), join(modules, "tooltrace", "dist"), { recursive: true });
  cpSync(join(root, "package.json"), join(modules, "tooltrace", "package.json"));
  for (const name of readdirSync(join(root, "node_modules"))) {
    if (name !== "tooltrace" && !name.startsWith(".")) symlinkSync(join(root, "node_modules", name), join(modules, name), "dir");
  }
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        noEmit: true,
      },
      include: ["*.ts"],
    }),
  );
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
});
