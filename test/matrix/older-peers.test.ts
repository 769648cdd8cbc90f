import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");
const project = join(import.meta.dirname, "../compat/older-peers");

// `npm i ai@^4` and `npm i @openai/agents@^0.3.0` beside tooltrace failed with ERESOLVE (its peers said ai >=5 and
// the Agents SDK >=0.14); with --legacy-peer-deps everything worked. The packed tarball is installed beside ai 4,
// @ai-sdk/openai 1 and the Agents SDK 0.3 as npm resolves peers by default, and their agents' evals run green:
// inline tools stubbed in strict mode, a Slack client on axios answered by an HTTP mock, a streamed handoff.
test("the oldest agent libraries in the peer range: the tarball installs beside them, and their agents' evals pass", async () => {
  expect(existsSync(join(project, "node_modules", "ai")), "test/compat/older-peers is not installed: npm run test:matrix").toBe(true);
  const packs = mkdtempSync(join(tmpdir(), "tooltrace-older-peers-"));
  try {
    await run("npm", ["pack", "--silent", "--pack-destination", packs], { cwd: root });
    const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith(".tgz")) ?? "");
    // No --legacy-peer-deps: npm refuses (ERESOLVE) a peer range the installed libraries are outside of.
    await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project });
    const result = await run(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], {
      cwd: project,
      env: { ...process.env, CI: "1", NO_COLOR: "1" },
    }).catch((error: { stdout: string; stderr: string }) => error);
    expect(`${result.stdout}${result.stderr}`).toMatch(/Tests\s+2 passed \(2\)/);
  } finally {
    rmSync(packs, { recursive: true, force: true });
  }
}, 240_000);
