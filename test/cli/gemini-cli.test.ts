import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSession, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { geminiCli } from "tooltrace/cli";

/** The model: asks Gemini CLI's `run_shell_command` for two commands in one reply, then reports both results. */
function shellModel() {
  const seen: MockModelRequest[] = [];
  const respond = (request: MockModelRequest): MockModelResponse | string => {
    if (!request.tools.some((tool) => tool.name === "run_shell_command")) return "ok";
    seen.push(request);
    if (request.toolResults.length === 0) {
      return {
        toolCalls: [
          { name: "run_shell_command", input: { command: "echo a > a.txt && echo wrote a" } },
          { name: "run_shell_command", input: { command: "echo b > b.txt && echo wrote b" } },
        ],
      };
    }
    return request.toolResults.map((result) => `${result.isError ? "failed" : "ok"} ${JSON.stringify(result.output)}`).join(" | ");
  };
  return { respond, seen };
}

// Gemini CLI spends a few seconds starting up: one run covers a stubbed call, a real one and the trace.
describe("Gemini CLI through the loopback proxy", { timeout: 90_000 }, () => {
  test("a stubbed call never runs, the other runs in the scratch folder; the trace is built from the wire", async () => {
    const { respond, seen } = shellModel();
    const files: string[] = [];
    const session = createSession({
      agent: geminiCli({ inspect: ({ cwd }) => void files.push(...["a.txt", "b.txt"].filter((file) => existsSync(join(cwd, file)))) }),
      llm: respond,
      stubs: [{ id: "a", tool: "run_shell_command", match: { command: { pattern: "a\\.txt" } }, outcome: { response: "stubbed a" } }],
    });
    const turn = await session.send("Write both files.");
    expect(turn.error).toBeUndefined();
    expect(files).toEqual(["b.txt"]);
    expect(turn.toolCalls.map((call) => [call.tool, call.answeredBy?.kind, call.status])).toEqual([
      ["run_shell_command", "stub", "completed"],
      ["run_shell_command", "real", "completed"],
    ]);
    expect(turn.text).toMatch(/^ok "stubbed a" \| ok .*wrote b/);
    expect(turn.modelCalls.every((call) => call.provider === "google.gemini" && call.model === "gemini-2.5-flash")).toBe(true);
    expect(seen[0]?.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["run_shell_command", "read_file", "write_file"]));
  });

  test("strict mode refuses a call no rule matched: it never runs, and the test is told", async () => {
    const { respond } = shellModel();
    const files: string[] = [];
    const session = createSession({
      agent: geminiCli({ inspect: ({ cwd }) => void files.push(...["a.txt", "b.txt"].filter((file) => existsSync(join(cwd, file)))) }),
      llm: respond,
      strict: true,
      stubs: [{ id: "a", tool: "run_shell_command", match: { command: { pattern: "a\\.txt" } }, outcome: { response: "stubbed a" } }],
    });
    const turn = await session.send("Write both files.");
    expect(files).toEqual([]);
    expect(turn.toolCalls.map((call) => call.status)).toEqual(["completed", "rejected"]);
    expect(session.takeViolations()).toEqual([expect.stringContaining("run_shell_command")]);
  });
});
