import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { expect, test } from "vitest";
import { projectInstalled } from "../fixtures/installed-project.js";

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

// The README's commands, followed from a fresh project: `npm pack` (dist/ is built by `npm test` before this
// runs, so the pack skips `prepare`), `npm i -D <tarball> vitest` and `npm i -D ai zod`, then its files as written.
test.skipIf(!projectInstalled)(
  "the README's install commands and first eval work as written from a fresh project",
  { timeout: 180_000 },
  async () => {
    const files = readmeFiles();
    expect([...files.keys()]).toEqual(expect.arrayContaining(["vitest.config.ts", "src/tools.ts", "test/todo.eval.ts"]));
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme).toContain("npm i -D ../tooltrace/tooltrace-0.1.0.tgz vitest");
    expect(readme).toContain("`npm i -D ai zod`");
    const work = mkdtempSync(join(tmpdir(), "tooltrace-readme-"));
    const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string }[];
    expect(tarball?.filename).toBe("tooltrace-0.1.0.tgz");
    const project = join(work, "your-project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "first-eval", type: "module", private: true }));
    // The versions this checkout tested against, so npm takes them from its cache.
    const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "-D"];
    await run("npm", [...install, join(work, tarball?.filename ?? ""), `vitest@${versionOf("vitest")}`], { cwd: project });
    await run("npm", [...install, `ai@${versionOf("ai")}`, `zod@${versionOf("zod")}`], { cwd: project });
    for (const path of ["vitest.config.ts", "src/tools.ts", "test/todo.eval.ts"]) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), files.get(path) ?? "");
    }
    const result = await run("npx", ["vitest", "run"], { cwd: project, env: { ...process.env, CI: "1" } }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(stripVTControlCharacters(`${result.stdout}\n${result.stderr}`)).toMatch(/Tests\s+1 passed \(1\)/);
  },
);

const run = (command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; maxBuffer?: number }) =>
  promisify(execFile)(command, args, options);

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}
