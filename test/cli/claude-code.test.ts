import { existsSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSession, grader, scrubber, type Middleware, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { claudeCode } from "tooltrace/cli";

/** The model: asks Claude Code's Bash tool to write a marker file, then reports what the tool returned. */
function bashModel(command: string) {
  const seen: MockModelRequest[] = [];
  const respond = (request: MockModelRequest): MockModelResponse | string => {
    if (!request.tools.some((tool) => tool.name === "Bash")) return "ok";
    seen.push(request);
    const result = request.toolResults.at(-1);
    if (result === undefined) return { toolCalls: [{ name: "Bash", input: { command, description: "Write the marker" } }] };
    return `${result.isError ? "failed" : "done"}: ${String(result.output).trim()}`;
  };
  return { respond, seen };
}

describe("Claude Code through the loopback proxy", { timeout: 60_000 }, () => {
  test("an unstubbed Bash call runs in Claude Code; the trace is built from the wire", async () => {
    const { respond, seen } = bashModel("echo written > marker.txt && cat marker.txt");
    let marker = false;
    const session = createSession({
      agent: claudeCode({ inspect: ({ cwd }) => void (marker = existsSync(join(cwd, "marker.txt"))) }),
      llm: respond,
    });
    const turn = await session.send("Write the marker file.");
    expect(turn.error).toBeUndefined();
    expect(marker).toBe(true);
    expect(turn.text).toBe("done: written");
    expect(turn).toHaveCalledTool("Bash", {
      input: { command: "echo written > marker.txt && cat marker.txt" },
      output: expect.stringContaining("written"),
    });
    expect(seen.at(-1)?.toolResults.at(-1)).toMatchObject({ name: "Bash", isError: false });
  });

  test("a stubbed call never runs in Claude Code; the model's next request shows the original call and the stub's result", async () => {
    const command = "echo written > marker.txt";
    const { respond, seen } = bashModel(command);
    let marker: boolean | undefined;
    const session = createSession({
      agent: claudeCode({ inspect: ({ cwd }) => void (marker = existsSync(join(cwd, "marker.txt"))) }),
      llm: respond,
      strict: true,
      stubs: [
        { id: "no-writes", tool: "Bash", match: { command: { pattern: "marker" } }, outcome: { response: "pretend it was written" } },
      ],
    });
    const turn = await session.send("Write the marker file.");
    expect(marker).toBe(false);
    expect(turn.text).toBe("done: pretend it was written");
    expect(turn).toHaveCalledTool("Bash", { input: { command }, output: "pretend it was written" });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "no-writes", outcomeIndex: 0 });
    const last = seen.at(-1);
    const asked = last?.messages.flatMap((message) => message.toolCalls ?? []).at(-1);
    expect(asked).toMatchObject({ name: "Bash", input: { command } });
    expect(last?.toolResults.at(-1)).toMatchObject({ id: asked?.id, name: "Bash", output: "pretend it was written", isError: false });
  });

  test("a middleware rewrites the argument: Claude Code runs the new command, the model still sees its own", async () => {
    const command = "echo one > marker.txt && cat marker.txt";
    const { respond, seen } = bashModel(command);
    const files: string[] = [];
    const rewrite: Middleware = {
      name: "sandbox-path",
      onToolCall: ({ input, handler }) => handler({ ...(input as object), command: command.replaceAll("marker.txt", "rewritten.txt") }),
    };
    const session = createSession({
      agent: claudeCode({
        inspect: ({ cwd }) => void files.push(...["marker.txt", "rewritten.txt"].filter((file) => existsSync(join(cwd, file)))),
      }),
      llm: respond,
      middleware: [rewrite],
    });
    const turn = await session.send("Write the marker file.");
    expect(files).toEqual(["rewritten.txt"]);
    expect(turn.toolCalls[0]).toMatchObject({
      input: { command: "echo one > rewritten.txt && cat rewritten.txt" },
      originalInput: { command },
      changes: [{ by: "sandbox-path", what: "input" }],
    });
    expect(
      seen
        .at(-1)
        ?.messages.flatMap((message) => message.toolCalls ?? [])
        .at(-1)?.input,
    ).toMatchObject({ command });
    expect(turn.text).toBe("done: one");
  });

  test("a middleware transforms the result: the model sees exactly what it returned", async () => {
    const { respond, seen } = bashModel("echo secret-token-123 && echo public");
    const redact: Middleware = {
      name: "redact",
      onToolCall: async ({ handler }) => String(await handler()).replace(/secret-token-\d+/, "[redacted]"),
    };
    const turn = await createSession({ agent: claudeCode(), llm: respond, middleware: [redact] }).send("Print it.");
    expect(seen.at(-1)?.toolResults.at(-1)?.output).toBe("[redacted]\npublic");
    expect(JSON.stringify(seen.flatMap((request) => request.toolResults))).not.toContain("secret-token-123");
    expect(turn.toolCalls[0]?.changes).toEqual([{ by: "redact", what: "output" }]);
    expect(turn.text).toBe("done: [redacted]\npublic");
  });

  test("a blocked call never runs; the model reads the failure and recovers", async () => {
    const { respond } = bashModel("rm -rf build && echo removed > marker.txt");
    let marker: boolean | undefined;
    const block: Middleware = {
      name: "no-rm",
      onToolCall: ({ input, handler, fail }) =>
        /\brm\b/.test(String((input as { command: string }).command)) ? fail("rm is not allowed here") : handler(),
    };
    const turn = await createSession({
      agent: claudeCode({ inspect: ({ cwd }) => void (marker = existsSync(join(cwd, "marker.txt"))) }),
      llm: respond,
      middleware: [block],
    }).send("Clean up.");
    expect(marker).toBe(false);
    expect(turn).toHaveFailedAction("Bash", { error: "rm is not allowed here" });
    expect(turn.text).toBe("failed: rm is not allowed here");
  });

  test("a scrubbed result hides the answer's source; afterEval grades the final answer", async () => {
    const { respond, seen } = bashModel("cat notes.txt");
    const turn = await createSession({
      agent: claudeCode({ setup: ({ cwd }) => writeFileSync(join(cwd, "notes.txt"), "INC-4821 reverted enable_canary_bypass\n") }),
      llm: respond,
      middleware: [scrubber({ remove: ["INC-4821"] }), grader({ expected: "enable_canary_bypass" })],
    }).send("Which flag was reverted?");
    expect(JSON.stringify(seen.map((request) => request.messages))).not.toContain("INC-4821");
    expect(turn).toHaveResult("scrubber", { removed: 1 });
    expect(turn).toHaveResult("grader", { pass: false });
  });

  test("a CLI waiting on a model that never answers is killed at the turn's timeout, naming what was pending", async () => {
    let root = "";
    const session = createSession({
      agent: claudeCode({ setup: ({ cwd }) => void (root = cwd) }),
      llm: (request: MockModelRequest) =>
        request.tools.some((tool) => tool.name === "Bash") ? new Promise<string>(() => undefined) : "ok",
    });
    // Long enough for the CLI to start and ask on a loaded machine (three test files run at once).
    const turn = await session.send("Hang.", { timeoutMs: 12_000 });
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toMatch(/turn 0 timed out after 12000 ms\. Pending: model call to anthropic\.messages claude-\S+/);
    // The process group was killed: the run ended and removed its scratch folder.
    for (let i = 0; i < 50 && existsSync(root); i++) await sleep(100);
    expect(root).not.toBe("");
    expect(existsSync(root)).toBe(false);
  });

  test("one reply with a stubbed and a real call: Claude Code runs only the real one; the model sees both, in order", async () => {
    const files: string[] = [];
    const seen: MockModelRequest[] = [];
    const respond = (request: MockModelRequest): MockModelResponse | string => {
      if (!request.tools.some((tool) => tool.name === "Bash")) return "ok";
      seen.push(request);
      if (request.toolResults.length === 0) {
        return {
          toolCalls: [
            { name: "Bash", input: { command: "echo a > a.txt && echo wrote a" } },
            { name: "Bash", input: { command: "echo b > b.txt && echo wrote b" } },
          ],
        };
      }
      return request.toolResults.map((result) => String(result.output).trim()).join(" | ");
    };
    const session = createSession({
      agent: claudeCode({ inspect: ({ cwd }) => void files.push(...["a.txt", "b.txt"].filter((file) => existsSync(join(cwd, file)))) }),
      llm: respond,
      stubs: [{ id: "a", tool: "Bash", match: { command: { pattern: "a\\.txt" } }, outcome: { response: "stubbed a" } }],
    });
    const turn = await session.send("Write both.");
    expect(files).toEqual(["b.txt"]);
    expect(turn.text).toBe("stubbed a | wrote b");
    const last = seen.at(-1);
    expect(last?.messages.flatMap((message) => message.toolCalls ?? []).map((call) => call.input)).toEqual([
      { command: "echo a > a.txt && echo wrote a" },
      { command: "echo b > b.txt && echo wrote b" },
    ]);
    expect(turn.toolCalls.map((call) => [call.answeredBy?.kind, call.output])).toEqual([
      ["stub", "stubbed a"],
      ["real", "wrote b"],
    ]);
  });

  test("a round answered by a stub, then a real call: later requests hold every round in order", async () => {
    const files: string[] = [];
    const seen: MockModelRequest[] = [];
    const respond = (request: MockModelRequest): MockModelResponse | string => {
      if (!request.tools.some((tool) => tool.name === "Bash")) return "ok";
      seen.push(request);
      const results = request.toolResults;
      if (results.length === 0) return { toolCalls: [{ name: "Bash", input: { command: "cat config.env" } }] };
      if (results.length === 1)
        return { text: "Now writing.", toolCalls: [{ name: "Bash", input: { command: "echo done > out.txt && echo wrote out" } }] };
      return results.map((result) => String(result.output).trim()).join(" | ");
    };
    const turn = await createSession({
      agent: claudeCode({ inspect: ({ cwd }) => void files.push(...["out.txt"].filter((file) => existsSync(join(cwd, file)))) }),
      llm: respond,
      stubs: [{ id: "config", tool: "Bash", match: { command: { const: "cat config.env" } }, outcome: { response: "MODE=test" } }],
    }).send("Configure and write.");
    expect(files).toEqual(["out.txt"]);
    expect(turn.text).toBe("MODE=test | wrote out");
    expect(
      seen
        .at(-1)
        ?.messages.slice(-4)
        .map((message) => [message.role, message.toolCalls?.[0]?.input ?? message.toolResults?.[0]?.output]),
    ).toEqual([
      ["assistant", { command: "cat config.env" }],
      ["tool", "MODE=test"],
      ["assistant", { command: "echo done > out.txt && echo wrote out" }],
      ["tool", "wrote out"],
    ]);
  });
});
