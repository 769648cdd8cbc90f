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
 * A user's project with the built package installed and every dependency but msw: `tooltrace({ llm: true })`
 * there said "Cannot find package 'msw' imported from .../catchers/msw-server.js".
 */
test.skipIf(!installed)("tooltrace({ llm: true }) without msw installed says which package to install", { timeout: 60_000 }, async () => {
  const project = mkdtempSync(join(tmpdir(), "tooltrace-no-msw-"));
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "tooltrace"), { recursive: true });
  cpSync(join(root, "dist"), join(modules, "tooltrace", "dist"), { recursive: true });
  cpSync(join(root, "package.json"), join(modules, "tooltrace", "package.json"));
  for (const name of readdirSync(join(root, "node_modules"))) {
    if (name === "msw" || name === "tooltrace" || name.startsWith(".")) continue;
    symlinkSync(join(root, "node_modules", name), join(modules, name), "dir");
  }
  writeFileSync(
    join(project, "vitest.config.mjs"),
    'import { defineConfig } from "vitest/config";\nimport { tooltrace } from "tooltrace/vitest";\nexport default defineConfig({ plugins: [tooltrace({ llm: true })], test: { include: ["*.eval.mjs"] } });\n',
  );
  writeFileSync(join(project, "app.eval.mjs"), 'import { test } from "vitest";\ntest("runs", () => {});\n');
  const run = await promisify(execFile)(process.execPath, [join(modules, "vitest", "vitest.mjs"), "run"], {
    cwd: project,
    env: { ...process.env, CI: "1" },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(output).toContain("[tooltrace] tooltrace({ llm }) needs msw, which is not installed.");
  expect(output).toContain("Fix: npm install --save-dev msw");
});
