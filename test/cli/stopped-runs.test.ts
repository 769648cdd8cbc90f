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

/** Each CLI, and its shell tool's input for a command. */
const clis: [string, () => Agent<never>, (command: string) => [string, object]][] = [
  ["Claude Code", () => claudeCode(), (command) => ["Bash", { command }]],
  ["Codex", () => codex(), (command) => ["exec_command", { cmd: command }]],
  ["OpenCode", () => opencode(), (command) => ["bash", { command, description: "wait" }]],
];

// The turn is stopped once its shell command has had time to start, however long the CLI took to get
// there (OpenCode takes 7 to 12 s to start on 2 cores): the same stop as a timeout's, on the turn's signal.
describe.each(clis)("%s stopped while its command runs", { timeout: 90_000 }, (_name, agent, shellCall) => {
  test("nothing it started survives, and what it sends while stopping is refused, never a late call of the test's", async () => {
    // Unique to this run: a process left by an earlier run is not this one's.
    const marker = `sleep ${300 + Math.floor(Math.random() * 9000)}`;
    let asked = 0;
    const stop = new AbortController();
    const [toolName, input] = shellCall(marker);
    const respond = (request: MockModelRequest): MockModelResponse | string => {
      if (!request.tools.some((offered) => offered.name === toolName)) return "ok";
      asked += 1;
      if (request.toolResults.length > 0) return "interrupted";
      setTimeout(() => stop.abort(new Error("stopped by the test")), 2_000);
      return { toolCalls: [{ name: toolName, input }] };
    };
    const session = createSession({ agent: agent(), llm: respond });
    const turn = await session.send("Wait a while.", { signal: stop.signal, timeoutMs: 80_000 });
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toContain("stopped by the test");
    expect(asked).toBeGreaterThanOrEqual(1);
    // Past the grace period between SIGTERM and SIGKILL, nothing the CLI started is alive, its shell command included.
    await sleep(2_500);
    expect(running(marker)).toEqual([]);
    expect(session.takeViolations()).toEqual([]);
    session.close();
  });
});
