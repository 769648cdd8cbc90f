import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";
import { expect, test } from "vitest";

/**
 * A user's project with the built package installed and every dependency but msw: `tooltrace({ llm: true })`
 * once needed msw ("Cannot find package 'msw'", then a message naming it). The run's wire mock is caught under
 * `fetch` now: an OpenAI client made at import time is answered, in a session by its `llm`, outside by the mock.
 */
test.skipIf(!projectInstalled)("tooltrace({ llm: true }) answers the LLM APIs without msw installed", { timeout: 60_000 }, async () => {
  const project = projectWithPackage("no-msw", ["msw"]);
  writeFileSync(
    join(project, "vitest.config.mjs"),
    'import { defineConfig } from "vitest/config";\nimport { tooltrace } from "tooltrace/vitest";\nexport default defineConfig({ plugins: [tooltrace({ llm: true })], test: { include: ["*.eval.mjs"] } });\n',
  );
  writeFileSync(
    join(project, "app.eval.mjs"),
    `import OpenAI from "openai";
import { expect, test } from "vitest";
import { createSession } from "tooltrace";

const client = new OpenAI({ apiKey: "sk-test" });
const ask = async (content) => (await client.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content }] })).choices[0].message.content;

test("answered by the run's mock outside a session, and by the session's llm inside one", async () => {
  expect(await ask("hi")).toBe("Mock response");
  const turn = await createSession({ agent: ask, llm: ["Scripted."] }).send("hi");
  expect(turn.text).toBe("Scripted.");
  expect(turn).toHaveModelCalls(1);
});
`,
  );
  const run = await promisify(execFile)(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], {
    cwd: project,
    env: { ...process.env, CI: "1" },
  }).catch((error: { stdout: string; stderr: string }) => error);
  expect(stripVTControlCharacters(`${run.stdout}\n${run.stderr}`)).toMatch(/Tests\s+1 passed \(1\)/);
});
