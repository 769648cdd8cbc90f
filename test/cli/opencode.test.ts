import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSession, grader, type Middleware, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { opencode } from "tooltrace/cli";

/** The model: asks OpenCode's `bash` tool to run two commands in one reply, then reports both results. */
function bashModel() {
  const seen: MockModelRequest[] = [];
  const respond = (request: MockModelRequest): MockModelResponse | string => {
    if (!request.tools.some((tool) => tool.name === "bash")) return "ok";
    seen.push(request);
    if (request.toolResults.length === 0) {
      return {
        toolCalls: [
          { name: "bash", input: { command: "echo a > a.txt && echo wrote a" } },
          { name: "bash", input: { command: "echo b > b.txt && echo wrote b" } },
        ],
      };
    }
    return request.toolResults.map((result) => `${result.isError ? "failed" : "ok"} ${String(result.output).trim()}`).join(" | ");
  };
  return { respond, seen };
}

// OpenCode spends several seconds starting up, so one run covers a stub, a rewrite, a transform and a grader.
describe("OpenCode through the loopback proxy", { timeout: 90_000 }, () => {
  test("a stubbed call never runs, a rewritten one runs with its new input and a transformed result; afterEval grades", async () => {
    const { respond, seen } = bashModel();
    const files: string[] = [];
    let unpacked: string[] = [];
    let scratch = "";
    const rewrite: Middleware = {
      name: "rename-b",
      onToolCall: async ({ input, handler }) => {
        const command = String((input as { command: string }).command);
        if (!command.includes("b.txt")) return handler();
        return `${String(await handler({ ...(input as object), command: command.replaceAll("b.txt", "c.txt") })).trim()} (checked)`;
      },
    };
    const session = createSession({
      agent: opencode({
        inspect: ({ cwd, tmp }) => {
          files.push(...["a.txt", "b.txt", "c.txt"].filter((file) => existsSync(join(cwd, file))));
          // What OpenCode unpacks into its temporary folder goes with the scratch folder, not into the machine's.
          unpacked = readdirSync(tmp).filter((name) => name.endsWith(".so"));
          scratch = dirname(tmp);
        },
      }),
      llm: respond,
      middleware: [rewrite, grader({ expected: "checked" })],
      stubs: [{ id: "a", tool: "bash", match: { command: { pattern: "a\\.txt" } }, outcome: { response: "stubbed a" } }],
    });
    const turn = await session.send("Write both files.");
    expect(turn.error).toBeUndefined();
    expect(files).toEqual(["c.txt"]);
    expect(unpacked.length).toBeGreaterThan(0);
    expect(existsSync(scratch)).toBe(false);
    expect(turn.text).toBe("ok stubbed a | ok wrote b (checked)");
    expect(turn.toolCalls.map((call) => [call.answeredBy?.kind, call.input])).toEqual([
      ["stub", { command: "echo a > a.txt && echo wrote a" }],
      ["real", { command: "echo b > c.txt && echo wrote b" }],
    ]);
    // The model sees its own inputs, not the rewritten one.
    expect(
      seen
        .at(-1)
        ?.messages.flatMap((message) => message.toolCalls ?? [])
        .map((call) => call.input),
    ).toEqual([{ command: "echo a > a.txt && echo wrote a" }, { command: "echo b > b.txt && echo wrote b" }]);
    expect(turn).toHaveResult("grader", { pass: true });
  });
});
