import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { expect, test } from "vitest";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";

const root = join(import.meta.dirname, "../..");

/** The README's code blocks that start with a file's path (`// src/tools.ts — ...`), by path. */
function readmeFiles(): Map<string, string> {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const files = new Map<string, string>();
  for (const match of readme.matchAll(/```ts\n\/\/ ([\w./-]+\.ts)\b[^\n]*\n([\s\S]*?)```/g)) {
    if (!files.has(match[1] as string)) files.set(match[1] as string, `${match[2]}`);
  }
  return files;
}

// The README's first eval, written as it says into a fresh project with the built package installed.
test.skipIf(!projectInstalled)("the README's first eval runs as written and passes", { timeout: 120_000 }, async () => {
  const files = readmeFiles();
  expect([...files.keys()]).toEqual(expect.arrayContaining(["vitest.config.ts", "src/tools.ts", "test/todo.eval.ts"]));
  const project = projectWithPackage("readme");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "first-eval", type: "module", private: true }));
  for (const path of ["vitest.config.ts", "src/tools.ts", "test/todo.eval.ts"]) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), files.get(path) ?? "");
  }
  const run = await promisify(execFile)(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], {
    cwd: project,
    env: { ...process.env, CI: "1" },
  }).catch((error: { stdout: string; stderr: string }) => error);
  expect(stripVTControlCharacters(`${run.stdout}\n${run.stderr}`)).toMatch(/Tests\s+1 passed \(1\)/);
});
