import { describe, expect, test } from "vitest";
import { createSession, MAX_CALLS_PER_SESSION, TooltraceError } from "tooltrace";
import { createTaskService } from "../fixtures/tasks.js";
import { runExecute } from "../fixtures/versions.js";

describe("plain function tools", () => {
  test("are patched in place on the record the agent holds, sync results stay sync", async () => {
    const calls: string[] = [];
    const tools = {
      add: (input: { a: number; b: number }) => {
        calls.push("real add");
        return input.a + input.b;
      },
      greet: async (input: { name: string }) => `hello ${input.name}`,
    };
    const agent = async (message: string) => {
      const sum = tools.add({ a: 2, b: 3 });
      const other = tools.add({ a: 1, b: 1 });
      const greeting = await tools.greet({ name: message });
      return `${sum} ${other} ${greeting}`;
    };
    const session = createSession({
      agent,
      tools,
      stubs: [{ id: "add-2-3", tool: "add", match: { a: { const: 2 }, b: { const: 3 } }, outcome: { response: 42 } }],
    });
    const turn = await session.send("ada");
    expect(turn.text).toBe("42 2 hello ada");
    expect(calls).toEqual(["real add"]);
    expect(turn).toHaveToolOrder([{ tool: "add", input: { a: 2 } }, "add", "greet"]);
    expect(turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["stub", "real", "real"]);
  });
});

describe("turns", () => {
  test("an agent that throws gives a failed turn, not a crashed test", async () => {
    const session = createSession({
      agent: () => {
        throw new RangeError("model overloaded");
      },
    });
    const turn = await session.send("hi");
    expect(turn.status).toBe("failed");
    expect(turn.error).toEqual({
      name: "RangeError",
      message: "model overloaded",
      at: expect.stringContaining("test/session/session.test.ts:"),
    });
    expect(turn).not.toSucceed();
  });

  test("timeoutMs fails the turn and aborts the agent's signal", async () => {
    let seen: AbortSignal | undefined;
    const session = createSession({
      agent: (_message, { signal }) => {
        seen = signal;
        return new Promise<string>(() => undefined);
      },
    });
    const turn = await session.send("hi", { timeoutMs: 20 });
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toContain("timed out after 20 ms");
    expect(seen?.aborted).toBe(true);
  });

  test("history carries across turns; a string reply is recorded as user and assistant messages", async () => {
    const seen: number[] = [];
    const session = createSession({
      agent: (message, { history }) => {
        seen.push(history.length);
        return `echo ${message}`;
      },
    });
    await session.send("one");
    const second = await session.send("two");
    expect(seen).toEqual([0, 2]);
    expect(second.index).toBe(1);
    expect(session.history).toEqual([
      { role: "user", content: "one" },
      { role: "assistant", content: "echo one" },
      { role: "user", content: "two" },
      { role: "assistant", content: "echo two" },
    ]);
    expect(session).toHaveMessageIncluding("echo one");
  });
});

describe("the call limit", () => {
  test(`a session records at most ${MAX_CALLS_PER_SESSION} calls and then fails loudly`, async () => {
    const tools = { ping: (input: { i: number }) => input.i };
    let thrown: unknown;
    const session = createSession({
      agent: () => {
        try {
          for (let i = 0; i <= MAX_CALLS_PER_SESSION; i++) tools.ping({ i });
        } catch (error) {
          thrown = error;
        }
        return "looped";
      },
      tools,
    });
    const turn = await session.send("loop");
    expect(turn.toolCalls).toHaveLength(MAX_CALLS_PER_SESSION);
    expect(thrown).toBeInstanceOf(TooltraceError);
    expect((thrown as Error).message).toContain("more than 10000 tool calls");
    expect(session.violations).toHaveLength(1);
    expect(turn).not.toSucceed();
    expect(session.takeViolations()).toHaveLength(1);
  });
});

describe("concurrent tests never see each other's calls", () => {
  // Both tests patch the SAME tools object at once; each session must see only its own calls and stubs.
  const shared = createTaskService().tools;
  const slow = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test.concurrent.each([
    ["a", 30],
    ["b", 5],
    ["c", 15],
  ])("session %s", async (name, delay) => {
    const session = createSession({
      name,
      tools: shared,
      stubs: [{ id: `list-${name}`, tool: "list_tasks", outcome: { response: { owner: name } } }],
      agent: async () => {
        const first = await runExecute(shared.list_tasks, {}, `${name}-1`);
        await slow(delay);
        const second = await runExecute(shared.list_tasks, {}, `${name}-2`);
        return JSON.stringify([first, second]);
      },
    });
    const turn = await session.send("go");
    expect(turn.text).toBe(JSON.stringify([{ owner: name }, { owner: name }]));
    expect(turn.toolCalls.map((call) => call.id)).toEqual([`${name}-1`, `${name}-2`]);
  });
});

describe("tools that cannot be patched", () => {
  test("a frozen tools record fails at setup with the tool's name", () => {
    const tools = Object.freeze({ list_tasks: () => [] });
    expect(() => createSession({ agent: () => "", tools })).toThrow(
      /`tools.list_tasks` cannot be caught: its `list_tasks` cannot be replaced/,
    );
  });

  test("an external abort signal cancels the turn", async () => {
    const controller = new AbortController();
    const session = createSession({ agent: () => new Promise<string>(() => undefined) });
    const pending = session.send("hi", { signal: controller.signal });
    controller.abort(new Error("user pressed stop"));
    const turn = await pending;
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toBe("user pressed stop");
  });
});
