import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { type Agent, createSession, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { claudeCode, codex, opencode } from "tooltrace/cli";

/** The processes whose command line holds `marker`. */
function running(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (command.includes(marker)) found.push(`${pid} ${command}`);
    } catch {
      // Ended while read.
    }
  }
  return found;
}

/** Each CLI, its shell tool's input for a command, and how long its turn may take before it is stopped. */
const clis: [string, () => Agent<never>, (command: string) => [string, object] | undefined, number][] = [
  ["Claude Code", () => claudeCode(), (command) => ["Bash", { command }], 5_000],
  ["Codex", () => codex(), (command) => ["exec_command", { cmd: command }], 8_000],
  ["OpenCode", () => opencode(), (command) => ["bash", { command, description: "wait" }], 12_000],
];

describe.each(clis)("%s stopped at a turn's timeout", { timeout: 60_000 }, (_name, agent, shellCall, timeoutMs) => {
  test("nothing it started survives, and what it sends while stopping is refused, never a late call of the test's", async () => {
    // Unique to this run: a process left by an earlier run is not this one's.
    const marker = `sleep ${300 + Math.floor(Math.random() * 9000)}`;
    let asked = 0;
    const respond = (request: MockModelRequest): MockModelResponse | string => {
      const tool = shellCall(marker)?.[0];
      if (!request.tools.some((offered) => offered.name === tool)) return "ok";
      asked += 1;
      if (request.toolResults.length > 0) return "interrupted";
      const [toolName, input] = shellCall(marker) ?? ["", {}];
      return { toolCalls: [{ name: toolName, input }] };
    };
    const session = createSession({ agent: agent(), llm: respond });
    const turn = await session.send("Wait a while.", { timeoutMs });
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toMatch(new RegExp(`turn 0 timed out after ${timeoutMs} ms`));
    expect(asked).toBeGreaterThanOrEqual(1);
    // Past the grace period between SIGTERM and SIGKILL, nothing the CLI started is alive, its shell command included.
    await sleep(2_500);
    expect(running(marker)).toEqual([]);
    expect(session.takeViolations()).toEqual([]);
    session.close();
  });
});
