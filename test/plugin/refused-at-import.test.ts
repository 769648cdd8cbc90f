import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { expect, test } from "vitest";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";

// A request refused while a test file was imported failed the file with a code frame in tooltrace's setup-core.ts.
test.skipIf(!projectInstalled)(
  "a request refused at import fails its file at the line that sent it, not in tooltrace's hook",
  { timeout: 60_000 },
  async () => {
    const project = projectWithPackage("refused-at-import");
    writeFileSync(
      join(project, "vitest.config.mjs"),
      'import { defineConfig } from "vitest/config";\nimport { tooltrace } from "tooltrace/vitest";\nexport default defineConfig({ plugins: [tooltrace()], test: { include: ["*.test.mjs"] } });\n',
    );
    writeFileSync(
      join(project, "orders.test.mjs"),
      'import { test } from "vitest";\nawait fetch("https://api.example.test/at-import").catch(() => undefined);\ntest("lists", () => undefined);\n',
    );
    const run = await promisify(execFile)(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], {
      cwd: project,
      env: { ...process.env, CI: "1", NO_COLOR: "1" },
    }).catch((error: { stdout: string; stderr: string }) => error);
    const output = stripVTControlCharacters(`${run.stdout}\n${run.stderr}`);
    expect(output).toContain("Sent from orders.test.mjs:2:7");
    expect(output).toMatch(/❯ orders\.test\.mjs:2:7/);
    expect(output).not.toMatch(/setup-core/);
  },
);
