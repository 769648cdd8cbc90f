import { describe, expect, test } from "vitest";
import { createSession } from "tooltrace";

describe("stubs keep the executor's shape", () => {
  test("an async plain-function tool with a throw stub rejects, so the agent's .catch runs", async () => {
    const tools = { fetch_report: async (_input: { id: string }): Promise<string> => "real report" };
    const session = createSession({
      tools,
      stubs: [{ id: "down", tool: "fetch_report", outcome: { throw: { name: "TimeoutError", message: "report service down" } } }],
      agent: () => {
        // The agent chains .catch without awaiting in a try: a synchronous throw would escape it.
        let returned: unknown;
        try {
          returned = tools.fetch_report({ id: "r1" }).catch((error: Error) => `fallback after ${error.name}: ${error.message}`);
        } catch (error) {
          return `threw synchronously: ${(error as Error).message}`;
        }
        return returned as Promise<string>;
      },
    });
    const turn = await session.send("report");
    expect(turn.text).toBe("fallback after TimeoutError: report service down");
    expect(turn).toHaveFailedAction("fetch_report", { error: "report service down" });
  });

  test("an async tool's stubbed response is a promise too", async () => {
    const tools = { fetch_report: async (_input: { id: string }) => "real report" };
    let wasPromise = false;
    const session = createSession({
      tools,
      stubs: [{ id: "ok", tool: "fetch_report", outcome: { response: "stubbed report" } }],
      agent: async () => {
        const result = tools.fetch_report({ id: "r1" });
        wasPromise = result instanceof Promise;
        return result;
      },
    });
    expect((await session.send("report")).text).toBe("stubbed report");
    expect(wasPromise).toBe(true);
  });

  test("a plain function that returned a promise once is treated as async from then on", async () => {
    const tools = { lookup: (input: { id: string }): Promise<string> => Promise.resolve(`real ${input.id}`) };
    const session = createSession({
      tools,
      stubs: [{ id: "b", tool: "lookup", match: { id: { const: "b" } }, outcome: { throw: { message: "no b" } } }],
      agent: async () => {
        const first = await tools.lookup({ id: "a" });
        const second = await tools.lookup({ id: "b" }).catch((error: Error) => `caught ${error.message}`);
        return `${first} / ${second}`;
      },
    });
    expect((await session.send("go")).text).toBe("real a / caught no b");
  });

  test("a synchronous tool stays synchronous: its throw stub throws", async () => {
    const tools = { add: (input: { a: number; b: number }) => input.a + input.b };
    const session = createSession({
      tools,
      stubs: [{ id: "boom", tool: "add", outcome: { throw: { message: "overflow" } } }],
      agent: () => {
        try {
          tools.add({ a: 1, b: 2 });
          return "no throw";
        } catch (error) {
          return `caught ${(error as Error).message}`;
        }
      },
    });
    expect((await session.send("go")).text).toBe("caught overflow");
  });
});
