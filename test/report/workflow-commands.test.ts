import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { noWorkflowCommands, oneLine } from "../../src/exits/excerpt.js";
import { packageFile } from "../fixtures/versions.js";

const project = join(import.meta.dirname, "../fixtures/injection-project");

test("on GitHub Actions, with JUnit, nothing a tool, a page or a model wrote starts a line with `::` (a workflow command)", {
  timeout: 60_000,
}, async () => {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-commands-"));
  const result = await promisify(execFile)(
    process.execPath,
    [
      packageFile("vitest", "vitest.mjs"),
      "run",
      "--config",
      join(project, "vitest.config.ts"),
      "--reporter=default",
      "--reporter=junit",
      "--reporter=github-actions",
      `--outputFile.junit=${join(folder, "junit.xml")}`,
    ],
    { env: { ...process.env, CI: "1", GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: join(folder, "summary.md") } },
  ).catch((error: { stdout: string; stderr: string }) => error);
  const printed = `${result.stdout}\n${result.stderr}`;
  // Vitest's own annotations name the eval file; the runner reads every other `::` line as a command too.
  const commands = printed
    .split(/\r?\n|\r/)
    .map((line) => line.trimStart())
    .filter((line) => line.startsWith("::") && !line.startsWith(`::error file=${join(project, "workflow-commands.eval.ts")}`));
  expect(commands).toEqual([]);
  // The three tests failed, and what they carried is in the log, defused.
  expect(printed).toContain("3 failed");
  expect(printed).toContain("→ failed: boom%0A::error file=README.md,line=1::injected");
  // The conversation is JUnit's system-out, on one line too.
  expect(readFileSync(join(folder, "junit.xml"), "utf8")).toContain("agent: done%0A::error file=README.md,line=1::injected");
  expect(printed).toContain("the shell command `echo hi%0A::error file=README.md");
  expect(readFileSync(join(folder, "junit.xml"), "utf8")).toContain("workflow-commands.eval.ts");
});

test("the backstop: a line that would start with `::` once trimmed gets a zero-width space between the colons", () => {
  expect(noWorkflowCommands("[tooltrace] x\n  ::add-mask::x\n::error::y\nkeep :: this")).toBe(
    "[tooltrace] x\n  :\u200b:add-mask::x\n:\u200b:error::y\nkeep :: this",
  );
  expect(oneLine("a\r\n::b")).toBe("a%0D%0A::b");
});
