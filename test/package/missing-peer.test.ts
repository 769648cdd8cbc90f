import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";
import { expect, test } from "vitest";

const _root = join(import.meta.dirname, "../..");

/**
 * A user's project with the built package installed and every dependency but msw: `tooltrace({ llm: true })`
 * there said "Cannot find package 'msw' imported from .../catchers/msw-server.js".
 */
test.skipIf(!projectInstalled)(
  "tooltrace({ llm: true }) without msw installed says which package to install",
  { timeout: 60_000 },
  async () => {
    const project = projectWithPackage("no-msw", ["msw"]);
    writeFileSync(
      join(project, "vitest.config.mjs"),
      'import { defineConfig } from "vitest/config";\nimport { tooltrace } from "tooltrace/vitest";\nexport default defineConfig({ plugins: [tooltrace({ llm: true })], test: { include: ["*.eval.mjs"] } });\n',
    );
    writeFileSync(join(project, "app.eval.mjs"), 'import { test } from "vitest";\ntest("runs", () => {});\n');
    const run = await promisify(execFile)(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], {
      cwd: project,
      env: { ...process.env, CI: "1" },
    }).catch((error: { stdout: string; stderr: string }) => error);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toContain("[tooltrace] tooltrace({ llm }) needs msw, which is not installed.");
    expect(output).toContain("Fix: npm install --save-dev msw");
  },
);
