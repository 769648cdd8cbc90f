import { beforeAll, describe, expect, test } from "vitest";
import { createSession, type MockModelRequest, type MockModelResponse, type Turn } from "tooltrace";
import { claudeCode } from "tooltrace/cli";
import { failure } from "../fixtures/failure.js";

/** Claude Code reads a config (stubbed), then writes a file with its real Bash tool. */
function respond(request: MockModelRequest): MockModelResponse | string {
  if (!request.tools.some((tool) => tool.name === "Bash")) return "ok";
  const results = request.toolResults;
  if (results.length === 0) return { toolCalls: [{ name: "Bash", input: { command: "cat config.env" } }] };
  if (results.length === 1) return { toolCalls: [{ name: "Bash", input: { command: "echo done > out.txt && echo wrote out" } }] };
  return results.map((result) => String(result.output).trim()).join(" | ");
}

const cat = { tool: "Bash", input: { command: "cat config.env" } };
const write = { tool: "Bash", input: { command: "echo done > out.txt && echo wrote out" } };

describe("toMatchTrajectory on a CLI agent's trace (Claude Code)", { timeout: 60_000 }, () => {
  let turn: Turn;
  beforeAll(async () => {
    turn = await createSession({
      agent: claudeCode(),
      llm: respond,
      stubs: [{ id: "config", tool: "Bash", match: { command: { const: "cat config.env" } }, outcome: { response: "MODE=test" } }],
    }).send("Configure and write.");
    expect(turn.text).toBe("MODE=test | wrote out");
  });

  test("strict passes on the recorded order and fails on another", () => {
    expect(turn).toMatchTrajectory([cat, { ...write, output: /wrote out/ }]);
    expect(failure(() => expect(turn).toMatchTrajectory([write, cat]))).toContain("Received: 1 out of order");
  });

  test("unordered passes in any order and fails with a call missing", () => {
    expect(turn).toMatchTrajectory([write, cat], { order: "unordered" });
    expect(failure(() => expect(turn).toMatchTrajectory([write], { order: "unordered" }))).toContain("Received: 1 extra");
  });

  test("superset passes with one of the calls and fails on a call never made", () => {
    expect(turn).toMatchTrajectory([write], { order: "superset" });
    const message = failure(() =>
      expect(turn).toMatchTrajectory([{ tool: "Bash", input: { command: "rm -rf /" } }], { order: "superset" }),
    );
    expect(message).toContain('/input/command: "rm -rf /" → "cat config.env"');
  });

  test("subset passes with an extra expected call and fails when the agent did more", () => {
    expect(turn).toMatchTrajectory([cat, write, { tool: "Bash", input: { command: "ls" } }], { order: "subset" });
    expect(failure(() => expect(turn).toMatchTrajectory([cat], { order: "subset" }))).toContain("Received: 1 extra");
  });
});
