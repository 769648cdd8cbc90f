import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSession, grader, type Middleware } from "tooltrace";
import { claudeCode, type CliRunFolders } from "tooltrace/cli";
import { fixTheBugModel } from "./scripted-model.js";

/** The project Claude Code works on: a broken function and its test. */
function brokenProject({ cwd }: CliRunFolders) {
  writeFileSync(join(cwd, "add.js"), "exports.add = (a, b) => a - b;\n");
  writeFileSync(
    join(cwd, "add.test.js"),
    'const { add } = require("./add.js");\nif (add(2, 3) !== 5) { console.log("FAIL: add(2, 3) = " + add(2, 3)); process.exit(1); }\nconsole.log("ok");\n',
  );
}

/** Nothing leaves the machine: a command that would reach the network fails, and the model reads why. */
const offline: Middleware = {
  name: "offline",
  onToolCall: ({ input, handler, fail }) =>
    /\b(curl|wget|npm (install|publish))\b/.test(String((input as { command?: string }).command))
      ? fail("network commands are disabled in this eval")
      : handler(),
};

describe("Claude Code fixes a bug, evaluated end to end", { timeout: 60_000 }, () => {
  test("it reads the file, fixes it, runs the test, and says so", async () => {
    let fixed = "";
    let testOutput = "";
    const session = createSession({
      agent: claudeCode({
        setup: brokenProject,
        // Before the scratch folder goes: what Claude Code left behind, and whether the test passes now.
        inspect: ({ cwd }) => {
          fixed = readFileSync(join(cwd, "add.js"), "utf8");
          testOutput = execFileSync(process.execPath, ["add.test.js"], { cwd, encoding: "utf8" });
        },
      }),
      llm: fixTheBugModel,
      middleware: [offline, grader({ expected: "test passes" })],
    });
    const turn = await session.send("The add function is broken. Fix it and run its test.");

    expect(fixed).toBe("exports.add = (a, b) => a + b;\n");
    expect(testOutput.trim()).toBe("ok");
    expect(turn).toHaveToolOrder([
      { tool: "Bash", input: { command: "cat add.js" } },
      { tool: "Bash", input: { command: expect.stringContaining("sed -i") } },
      { tool: "Bash", input: { command: "node add.test.js" } },
    ]);
    expect(turn).toHaveCalledTool("Bash", { input: { command: "node add.test.js" }, output: "ok" });
    expect(turn).toHaveNoFailedActions();
    expect(turn).toHaveResult("grader", { pass: true });
  });
});
