import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runJest } from "../fixtures/jest-run.js";
import { packageFile } from "../fixtures/versions.js";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");
const project = join(import.meta.dirname, "../compat/jest-29");
const packs = mkdtempSync(join(tmpdir(), "tooltrace-jest-matrix-"));

// The packed tarball installed beside Jest 29 (test/compat/jest-29), its evals run by Jest 29 and by Jest 30 (the
// one `npm test` installs), each in Jest's CommonJS mode and in its ESM mode.
beforeAll(async () => {
  expect(existsSync(join(project, "node_modules", "jest")), "test/compat/jest-29 is not installed: npm run test:matrix").toBe(true);
  await run("npm", ["pack", "--silent", "--pack-destination", packs], { cwd: root });
  const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith(".tgz")) ?? "");
  await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project });
}, 240_000);
afterAll(() => rmSync(packs, { recursive: true, force: true }));

const jests = {
  "Jest 29": join(project, "node_modules", "jest", "bin", "jest.js"),
  "Jest 30": packageFile("jest", "bin", "jest.js"),
};
const modes = { CommonJS: { esm: false, config: "jest.config.cjs" }, ESM: { esm: true, config: "jest.esm.config.cjs" } };

for (const [jest, bin] of Object.entries(jests)) {
  for (const [mode, { esm, config }] of Object.entries(modes)) {
    test(`${jest}, ${mode}: the evals run as under Vitest`, async () => {
      const results = await runJest(join(project, config), { esm, jest: bin });
      const status = (title: string) => results.get(title)?.status;
      expect(status("stubs answer and the matchers are registered")).toBe("passed");
      expect(status("the tools are restored after the previous test")).toBe("passed");
      expect(status("a session's llm answers the agent's request on the wire")).toBe("passed");
      const refused = results.get("a host beyond loopback is refused");
      expect(refused?.status).toBe("failed");
      expect(refused?.failureMessages.join("\n")).toContain('globals: { tooltrace: { allowHosts: ["api.example.test"] } }');
      const unused = results.get("an unused rule fails the test after it ends");
      expect(unused?.status).toBe("failed");
      expect(unused?.failureMessages.join("\n")).toContain("stub rules never used: never");
    }, 120_000);
  }
}
