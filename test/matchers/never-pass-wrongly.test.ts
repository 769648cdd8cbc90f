import { describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { failure } from "../fixtures/failure.js";
import { recordedTurn } from "../fixtures/recorded-turn.js";

/** A turn with one call whose input and output are the given values. */
async function turnWith(input: unknown, output: unknown) {
  const tools = { record: (_input: unknown) => output };
  const session = createSession({ tools, agent: () => (tools.record(input), "ok") });
  return session.send("go");
}

describe("values match with the runner's equality and subset semantics", () => {
  test("dates compare by time (Date(1) matched Date(2) before)", async () => {
    const turn = await turnWith({ at: new Date(1) }, null);
    expect(turn).toHaveCalledTool("record", { input: { at: new Date(1) } });
    expect(turn).not.toHaveCalledTool("record", { input: { at: new Date(2) } });
  });

  test("maps and sets compare by entries (any Map matched any Map before)", async () => {
    const turn = await turnWith({ tags: new Map([["a", 1]]), ids: new Set([1, 2]) }, null);
    expect(turn).toHaveCalledTool("record", { input: { tags: new Map([["a", 1]]), ids: new Set([2, 1]) } });
    expect(turn).not.toHaveCalledTool("record", { input: { tags: new Map([["a", 2]]) } });
    expect(turn).not.toHaveCalledTool("record", { input: { ids: new Set([3]) } });
  });

  test("a listed key must exist ({ a: undefined } matched {} before)", async () => {
    const turn = await turnWith({}, { b: 1 });
    expect(turn).not.toHaveCalledTool("record", { input: { a: undefined } });
    expect(turn).toHaveCalledTool("record", { output: { b: 1 } });
  });

  test("a plain object matches objects only, as in eve's contract (`{}` counted a call whose output is a string)", async () => {
    const text = await turnWith({}, "Walk dog");
    expect(text).not.toHaveCalledTool("record", { output: {} });
    expect(text).toHaveCalledTool("record", { output: "Walk dog" });
    const list = await turnWith({}, ["Walk dog"]);
    expect(list).not.toHaveCalledTool("record", { output: {} });
    const object = await turnWith({}, { tasks: ["Walk dog"] });
    expect(object).toHaveCalledTool("record", { output: {} });
    expect(object).toHaveCalledTool("record", { output: { tasks: expect.any(Array) } });
  });

  test("the documented extras keep their verdicts: RegExp, predicates, asymmetric matchers, arrays by length", async () => {
    const turn = await turnWith({ query: "buy milk", tags: ["a", "b"], nested: { list: [{ id: 1, extra: true }] } }, null);
    expect(turn).toHaveCalledTool("record", { input: { query: /milk$/, tags: ["a", "b"], nested: { list: [{ id: 1 }] } } });
    expect(turn).toHaveCalledTool("record", {
      input: { query: (text: string) => text.startsWith("buy"), tags: expect.arrayContaining(["b"]) },
    });
    expect(turn).not.toHaveCalledTool("record", { input: { tags: ["a"] } });
    expect(turn).toHaveCalledTool("record", { input: /"tags":\["a","b"\]/ });
  });
});

describe("failures show a diff against the closest call, and long lists are capped", () => {
  test("the whole expected and actual input, diffed, not cut at 120 characters", async () => {
    const long = "x".repeat(300);
    const turn = await turnWith({ note: `${long}-end`, id: 7 }, null);
    const message = failure(() => expect(turn).toHaveCalledTool("record", { input: { note: `${long}-END` } }));
    expect(message).toContain("Closest call (#1), input:");
    expect(message).toContain(`${long}-END`);
    expect(message).toContain(`${long}-end`);
  });

  test("a failing matcher on a 10,000-call turn prints a short message (628,028 characters before)", async () => {
    const tools = { ping: (input: { i: number }) => input.i };
    const session = createSession({
      tools,
      agent: () => {
        for (let i = 0; i < 10_000; i++) tools.ping({ i });
        return "done";
      },
    });
    const turn = await session.send("loop");
    const message = failure(() => expect(turn).toHaveCalledTool("ping", { input: { i: -1 } }));
    expect(message.length).toBeLessThan(5_000);
    expect(message).toContain("Tool calls (10000):");
    expect(message).toContain("… 9980 more calls …");
    expect(message).toContain('10000. ping({"i":9999})');
  });
});

describe('a tool name nothing knows gets "did you mean"', () => {
  test('expect(turn).not.toHaveCalledTool("complete_tsk") passed silently before', async () => {
    const { turn } = await recordedTurn();
    expect(() => expect(turn).not.toHaveCalledTool("complete_tsk")).toThrow(
      '[tooltrace] toHaveCalledTool: no tool "complete_tsk" in this turn; did you mean "complete_task"? Tools: complete_task, list_tasks, notify.',
    );
    expect(() => expect(turn).toHaveToolOrder(["list_tasks", "notfy"])).toThrow(/did you mean "notify"/);
    expect(() => expect(turn).not.toHaveFailedAction("complete_tsk")).toThrow(/did you mean "complete_task"/);
    // A tool the session was given but the agent never called is known: no error.
    const tools = { list_tasks: () => [], unused: () => 1 };
    const session = createSession({ tools, agent: () => "hi" });
    expect(await session.send("hi")).not.toHaveCalledTool("unused");
  });
});

describe("the runner's own equality, with the user's testers", () => {
  test("expect.addEqualityTesters applies inside the matchers (a case-insensitive tester failed OSLO against oslo before)", async () => {
    const caseInsensitive = (a: unknown, b: unknown) =>
      typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : undefined;
    expect.addEqualityTesters([caseInsensitive]);
    const turn = await turnWith({ city: "oslo", stops: ["bergen"] }, { forecast: "Rain" });
    expect(turn).toHaveCalledTool("record", { input: { city: "OSLO" } });
    expect(turn).toHaveCalledTool("record", { input: { stops: ["BERGEN"] }, output: { forecast: "rain" } });
    expect(turn).not.toHaveCalledTool("record", { input: { city: "paris" } });
  });
});
