import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Agent, createSession, type MockModelRequest, type MockModelResponse, scrubber } from "tooltrace";
import { claudeCode, codex, opencode } from "tooltrace/cli";
import { createLlmAnswer, type LoopbackServer, serveOnLoopback } from "tooltrace/wire";

const SOURCE = "INC-4821";

/**
 * A fake provider on 127.0.0.1 standing for the real model (Anthropic, OpenAI Chat and Responses on the
 * wire): it keeps every request body it receives as bytes, and its model runs the agent's shell tool on
 * `notes.txt`, then `config.env`, then says what it read.
 */
let upstream: LoopbackServer;
const received: string[] = [];
beforeAll(async () => {
  const model = (request: MockModelRequest): MockModelResponse | string => {
    const shell = request.tools.find((tool) => ["Bash", "bash", "exec_command", "shell"].includes(tool.name));
    if (shell === undefined) return "ok";
    const command = (text: string) =>
      shell.name === "shell" ? { command: ["bash", "-lc", text] } : shell.name === "exec_command" ? { cmd: text } : { command: text };
    const results = request.toolResults;
    if (results.length === 0) return { toolCalls: [{ name: shell.name, input: command("cat notes.txt") }] };
    if (results.length === 1) return { toolCalls: [{ name: shell.name, input: command("cat config.env") }] };
    return `read: ${results.map((result) => JSON.stringify(result.output)).join(" | ")}`;
  };
  const answer = createLlmAnswer({ respond: model });
  upstream = await serveOnLoopback(async (request) => {
    received.push(await request.clone().text());
    return answer.answer(request);
  });
});
afterAll(() => upstream.close());

const setup = ({ cwd }: { cwd: string }) => {
  writeFileSync(join(cwd, "notes.txt"), `${SOURCE} reverted enable_canary_bypass\n`);
  writeFileSync(join(cwd, "config.env"), "MODE=live\n");
};

/** Each CLI, its shell tool, and the field of that tool's input holding the command. */
const clis: [string, () => Agent<never>, string, string][] = [
  ["Claude Code (Anthropic Messages)", () => claudeCode({ setup }), "Bash", "command"],
  ["Codex (OpenAI Responses)", () => codex({ setup }), "exec_command", "cmd"],
  ["OpenCode (OpenAI Chat Completions)", () => opencode({ setup, api: "openai-chat" }), "bash", "command"],
];

describe.each(clis)("%s against the real model behind middleware", { timeout: 120_000 }, (_name, agent, shell, field) => {
  test("a scrubber keeps the source out of every request the upstream receives; a stubbed round reaches it as one coherent conversation", async () => {
    const before = received.length;
    const session = createSession({
      agent: agent(),
      upstream: upstream.url,
      middleware: [scrubber({ remove: [SOURCE] })],
      stubs: [{ id: "config", tool: shell, match: { [field]: { pattern: "config\\.env" } }, outcome: { response: "MODE=stubbed" } }],
    });
    const turn = await session.send("Which flag was reverted, and what mode is set?");
    session.close();
    expect(turn.error).toBeUndefined();
    const sent = received.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const body of sent) expect(body).not.toContain(SOURCE);
    // The CLI's own result held the source; the upstream got the scrubber's result in its place.
    expect(sent.some((body) => body.includes("[scrubbed]"))).toBe(true);
    expect(turn.text).toContain("[scrubbed]");
    expect(turn).toHaveResult("scrubber", { removed: expect.any(Number) });
    // The stubbed round never ran in the CLI; the upstream saw it, with the stub's result, in the next request.
    expect(turn.toolCalls.map((call) => [call.answeredBy?.kind, call.output])).toEqual([
      ["real", "[scrubbed]"],
      ["stub", "MODE=stubbed"],
    ]);
    expect(sent.at(-1)).toContain("MODE=stubbed");
    expect(turn.text).toContain("MODE=stubbed");
  });
});
