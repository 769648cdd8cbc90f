import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSession, grader, type Middleware, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { codex } from "tooltrace/cli";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";

/** The model: asks Codex's shell tool (whatever this version names it) to run `command`, then reports the result. */
function shellModel(command: string) {
  const seen: MockModelRequest[] = [];
  const respond = (request: MockModelRequest): MockModelResponse | string => {
    const shell = request.tools.find((tool) => tool.name === "exec_command" || tool.name === "shell");
    if (shell === undefined) return "ok";
    seen.push(request);
    const result = request.toolResults.at(-1);
    if (result === undefined)
      return {
        toolCalls: [{ name: shell.name, input: shell.name === "shell" ? { command: ["bash", "-lc", command] } : { cmd: command } }],
      };
    return `${result.isError ? "failed" : "done"}: ${JSON.stringify(result.output)}`;
  };
  return { respond, seen };
}

describe("Codex through the loopback proxy", { timeout: 60_000 }, () => {
  test("an unstubbed shell call runs in Codex and writes the file", async () => {
    const { respond, seen } = shellModel("echo written > marker.txt");
    let marker: boolean | undefined;
    const turn = await createSession({
      agent: codex({ inspect: ({ cwd }) => void (marker = existsSync(join(cwd, "marker.txt"))) }),
      llm: respond,
    }).send("Write the marker file.");
    expect(turn.error).toBeUndefined();
    expect(marker).toBe(true);
    expect(turn.toolCalls).toHaveLength(1);
    expect(turn.toolCalls[0]).toMatchObject({ status: "completed", answeredBy: { kind: "real" } });
    expect(turn.text).toMatch(/^done: /);
    expect(seen).toHaveLength(2);
  });

  test("a stubbed call never runs; a grader reads the final answer", async () => {
    const { respond, seen } = shellModel("echo written > marker.txt");
    let marker: boolean | undefined;
    const session = createSession({
      agent: codex({ inspect: ({ cwd }) => void (marker = existsSync(join(cwd, "marker.txt"))) }),
      llm: respond,
      strict: true,
      middleware: [grader({ expected: "pretend" })],
      stubs: [{ id: "no-writes", tool: "exec_command", outcome: { response: "pretend it was written" } }],
    });
    const turn = await session.send("Write the marker file.");
    expect(marker).toBe(false);
    expect(turn.text).toBe('done: "pretend it was written"');
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "no-writes", outcomeIndex: 0 });
    expect(seen.at(-1)?.toolResults.at(-1)).toMatchObject({ name: "exec_command", output: "pretend it was written" });
    expect(turn).toHaveResult("grader", { pass: true });
  });

  test("a rewritten argument runs in Codex; a blocked call never runs and the model recovers", async () => {
    const { respond } = shellModel("echo one > marker.txt");
    const files: string[] = [];
    const inspect = ({ cwd }: { cwd: string }) =>
      void files.push(...["marker.txt", "rewritten.txt"].filter((file) => existsSync(join(cwd, file))));
    const rewrite: Middleware = {
      name: "rewrite",
      onToolCall: ({ input, handler }) => handler({ ...(input as object), cmd: "echo one > rewritten.txt" }),
    };
    const rewritten = await createSession({ agent: codex({ inspect }), llm: respond, middleware: [rewrite] }).send("Write it.");
    expect(files).toEqual(["rewritten.txt"]);
    expect(rewritten.toolCalls[0]).toMatchObject({
      input: { cmd: "echo one > rewritten.txt" },
      originalInput: { cmd: "echo one > marker.txt" },
    });

    files.length = 0;
    const block: Middleware = { name: "block", onToolCall: ({ fail }) => fail("shell is disabled") };
    const blocked = await createSession({ agent: codex({ inspect }), llm: respond, middleware: [block] }).send("Write it.");
    expect(files).toEqual([]);
    expect(blocked).toHaveFailedAction("exec_command", { error: "shell is disabled" });
    expect(blocked.text).toBe('failed: "shell is disabled"');
  });

  test("recorded against a local provider through the proxy, then replayed with it stopped: the command never runs again", async () => {
    const { respond } = shellModel("echo recorded > marker.txt");
    const provider = createLlmAnswer({ respond });
    const server = await serveOnLoopback(provider.answer);
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-codex-cassette-")), "codex.json");
    let marker: boolean | undefined;
    const inspect = ({ cwd }: { cwd: string }) => void (marker = existsSync(join(cwd, "marker.txt")));
    const recorder = createSession({ agent: codex({ inspect }), upstream: server.url, cassette: { mode: "record", path } });
    const recorded = await recorder.send("Write the marker file.");
    recorder.close();
    await server.close();
    expect(recorded.error).toBeUndefined();
    expect(marker).toBe(true);
    expect(recorded.modelCalls.map((call) => call.answeredBy?.kind)).toEqual(recorded.modelCalls.map(() => "real"));
    expect(recorded.text).toMatch(/^done: /);
    const file = JSON.parse(readFileSync(path, "utf8")) as { llm: unknown[]; tools: Record<string, unknown[]> };
    expect(file.llm).toHaveLength(provider.calls.length);
    expect(file.tools.exec_command).toHaveLength(1);

    const session = createSession({ agent: codex({ inspect }), upstream: server.url, strict: true, cassette: { mode: "replay", path } });
    const replayed = await session.send("Write the marker file.");
    expect(session.takeViolations()).toEqual([]);
    expect(marker).toBe(false);
    expect(replayed.text).toBe(recorded.text);
    expect(replayed.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["cassette"]);
  });
});
