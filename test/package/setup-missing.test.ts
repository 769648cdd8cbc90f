import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { expect, test } from "vitest";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";

const run = (command: string[], cwd: string) =>
  promisify(execFile)(process.execPath, command, { cwd, env: { ...process.env, CI: "1", NODE_OPTIONS: "" } }).then(
    (done) => stripVTControlCharacters(`${done.stdout}\n${done.stderr}`),
    (failed: { stdout: string; stderr: string }) => stripVTControlCharacters(`${failed.stdout}\n${failed.stderr}`),
  );

const EVAL = (load: string) => `${load}

test("the weather", async () => {
  const session = createSession({ tools: { weather: async () => ({ tempC: 21 }) }, agent: async () => "21°C" });
  expect((await session.send("Weather?")).text).toBe("21°C");
});
`;

// Forgetting the plugin was the most common first mistake: the test ran (renamed from .eval.ts, or under the
// project's own include), not hermetic, and failed later with "Invalid Chai property: toHaveCalledTool".
test.skipIf(!projectInstalled)(
  "under Vitest without the plugin, createSession says the plugin is missing and the line to add",
  { timeout: 60_000 },
  async () => {
    const project = projectWithPackage("no-plugin");
    writeFileSync(join(project, "vitest.config.mjs"), 'export default { test: { include: ["*.test.mjs"] } };\n');
    writeFileSync(
      join(project, "weather.test.mjs"),
      EVAL('import { expect, test } from "vitest";\nimport { createSession } from "tooltrace";'),
    );
    const output = await run([join(project, "node_modules", "vitest", "vitest.mjs"), "run"], project);
    expect(output).toContain("tooltrace's Vitest plugin is not in this run's config");
    expect(output).toContain('`import { tooltrace } from "tooltrace/vitest";` and `plugins: [tooltrace()]`');
    // The user's line, not tooltrace's.
    expect(output).toMatch(/weather\.test\.mjs:5:\d+/);
    expect(output).not.toMatch(/node_modules\/tooltrace\/dist\/\S+:\d+:\d+/);
  },
);

test.skipIf(!projectInstalled)(
  "under Jest without tooltrace/jest, createSession names the setupFilesAfterEnv line",
  { timeout: 60_000 },
  async () => {
    const project = projectWithPackage("no-jest-setup");
    writeFileSync(join(project, "jest.config.cjs"), 'module.exports = { testMatch: ["**/*.jest-spec.cjs"], transform: {} };\n');
    writeFileSync(join(project, "weather.jest-spec.cjs"), EVAL('const { createSession } = require("tooltrace");'));
    const output = await run([join(project, "node_modules", "jest", "bin", "jest.js"), "--ci"], project);
    expect(output).toContain("tooltrace's Jest setup is not in this run's config");
    expect(output).toContain('"setupFilesAfterEnv": ["tooltrace/jest"]');
  },
);
