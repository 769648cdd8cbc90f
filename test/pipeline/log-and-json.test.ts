import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel, TRACE_FORMAT_VERSION, toJsonValue, turnToJson } from "tooltrace";

describe("one ordered log per session", () => {
  test("tool and model calls share one sequence and one monotonic clock; the turn's lists are views of it", async () => {
    const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ({ tasks: ["a"] }) }) };
    const model = mockModel(({ messages }) => (messages.at(-1)?.role === "tool" ? "You have a." : { toolCalls: [{ name: "list_tasks" }] }));
    const session = createSession({
      tools,
      agent: async (message) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(3) })).text,
    });
    const first = await session.send("tasks?");
    const second = await session.send("again?");
    expect(session.interactions.map((record) => [record.seq, record.kind, record.turnIndex])).toEqual([
      [1, "model", 0],
      [2, "tool", 0],
      [3, "model", 0],
      [4, "model", 1],
      [5, "tool", 1],
      [6, "model", 1],
    ]);
    expect(second.modelCalls.map((call) => call.seq)).toEqual([4, 6]);
    expect(first.toolCalls[0]).toBe(session.interactions[1]);
    for (const record of session.interactions) {
      expect(record.end).toBeGreaterThanOrEqual(record.start);
      expect(record.durationMs).toBeCloseTo((record.end as number) - record.start, 6);
    }
    const [m1, t, m2] = session.interactions;
    expect(m1!.end! <= t!.start && t!.end! <= m2!.start).toBe(true);
    expect(first.modelCalls.map((call) => [call.step, call.answeredBy])).toEqual([
      [1, { kind: "mock-model" }],
      [2, { kind: "mock-model" }],
    ]);
    expect(second.modelCalls.map((call) => call.step)).toEqual([3, 4]);
  });
});

describe("the JSON form of a turn", () => {
  test("carries a version, only JSON values, fixed keys, and no private fields", async () => {
    const tools = { echo: (input: { n: bigint | number }) => ({ at: new Date(0), n: input.n, fn: () => 1 }) };
    const session = createSession({ tools, agent: () => (tools.echo({ n: 1 }), "ok") });
    const turn = await session.send("go");
    const json = turnToJson(turn);
    expect(json.version).toBe(TRACE_FORMAT_VERSION);
    expect(Object.keys(json)).toEqual([
      "version",
      "index",
      "userMessage",
      "status",
      "text",
      "assistantTexts",
      "usage",
      "violations",
      "startedAt",
      "durationMs",
      "toolCalls",
      "modelCalls",
      "httpCalls",
      "judgeCalls",
      "tools",
      "results",
    ]);
    expect(Object.keys(json.toolCalls[0]!)).toEqual([
      "seq",
      "kind",
      "turnIndex",
      "status",
      "answeredBy",
      "startedAt",
      "start",
      "end",
      "durationMs",
      "id",
      "tool",
      "path",
      "qualifiedName",
      "input",
      "output",
    ]);
    expect(json.toolCalls[0]?.output).toEqual({ at: "1970-01-01T00:00:00.000Z", n: 1, fn: "[Function fn]" });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  test("keeps repeated objects intact; only a true cycle becomes [Circular]", () => {
    const shared = { id: "milk", title: "Buy milk" };
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(toJsonValue({ first: shared, second: shared, list: [shared, shared] })).toEqual({
      first: shared,
      second: shared,
      list: [shared, shared],
    });
    expect(toJsonValue(cyclic)).toEqual({ name: "loop", self: "[Circular]" });
    expect(
      toJsonValue({
        big: 10n,
        map: new Map([["a", 1]]),
        set: new Set([1, 2]),
        error: new RangeError("x"),
        nan: Number.NaN,
        skip: undefined,
      }),
    ).toEqual({
      big: "10",
      map: { a: 1 },
      set: [1, 2],
      error: { name: "RangeError", message: "x" },
      nan: null,
    });
    const throwing = Object.defineProperty({}, "boom", {
      enumerable: true,
      get: () => {
        throw new Error("getter failed");
      },
    });
    expect(toJsonValue(throwing)).toEqual({ boom: "[Threw: getter failed]" });
  });

  test('the same output returned by two calls is kept in both (it became "[Circular]" before)', async () => {
    const tasks = { tasks: [{ id: "milk" }] };
    const tools = { list_tasks: (_input: object) => tasks };
    const session = createSession({ tools, agent: () => (tools.list_tasks({}), tools.list_tasks({}), "ok") });
    const json = turnToJson(await session.send("go"));
    expect(json.toolCalls.map((call) => call.output)).toEqual([tasks, tasks]);
  });
});
