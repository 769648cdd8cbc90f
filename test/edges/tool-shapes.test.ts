import { generateText, stepCountIs, tool } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel, StubConfigError } from "tooltrace";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running.
let llm: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  llm = startLlmServer();
});
afterAll(() => llm.close());

const STUB = [{ id: "danger", tool: "danger", outcome: { response: "stubbed" } }];

describe("tools of every shape are caught in a strict session; the real one never runs", () => {
  test("an AI SDK tool whose `execute` is a getter, own or on its class's prototype", async () => {
    let real = 0;
    const own = {
      description: "d",
      inputSchema: z.object({ x: z.string() }),
      get execute() {
        return async () => ((real += 1), "real");
      },
    };
    class GetterTool {
      description = "d";
      inputSchema = z.object({ x: z.string() });
      get execute() {
        return async () => ((real += 1), "real");
      }
    }
    for (const danger of [own, new GetterTool()]) {
      const tools = { danger };
      const model = mockModel([
        { toolCalls: [{ name: "danger", input: { x: "y" } }] },
        ({ toolResults }) => String(toolResults[0]?.output),
      ]);
      const session = createSession({
        tools,
        strict: true,
        stubs: STUB,
        agent: async (message) =>
          (await generateText({ model, tools: { danger: tool(tools.danger) }, prompt: message, stopWhen: stepCountIs(3) })).text,
      });
      const turn = await session.send("go");
      expect(turn.text).toBe("stubbed");
      expect(turn).toHaveCalledTool("danger", { input: { x: "y" }, output: "stubbed" });
      session.close();
    }
    expect(real).toBe(0);
  });

  test("a class instance as the tools record: its methods live on the prototype", async () => {
    let real = 0;
    class Tools {
      calls = 0;
      async danger(_input: { x: string }) {
        real += 1;
        return "real";
      }
    }
    const tools = new Tools();
    const session = createSession({ tools, strict: true, stubs: STUB, agent: async () => String(await tools.danger({ x: "y" })) });
    const turn = await session.send("go");
    expect(turn.text).toBe("stubbed");
    expect(turn).toHaveCalledTool("danger", { count: 1 });
    session.close();
    expect(real).toBe(0);
    // A session that is not strict lets go entirely: the instance shows its prototype's method again.
    createSession({ tools, agent: () => "" }).close();
    const plain = new Tools();
    createSession({ tools: plain, agent: () => "" }).close();
    expect(Object.hasOwn(plain, "danger")).toBe(false);
  });

  test("a function replaced on the record after createSession is caught from the next call on", async () => {
    let real = 0;
    const tools: Record<string, (input: { x: string }) => unknown> = { danger: () => "first" };
    const session = createSession({ tools, strict: true, stubs: STUB, agent: async () => String(await tools.danger?.({ x: "y" })) });
    const replacement = async () => ((real += 1), "real");
    tools.danger = replacement;
    const turn = await session.send("go");
    expect(turn.text).toBe("stubbed");
    expect(turn).toHaveCalledTool("danger", { count: 1 });
    session.close();
    expect(real).toBe(0);
    // What the user assigned is what the record holds once a session that is not strict lets go.
    const record: Record<string, () => unknown> = { danger: () => "first" };
    const loose = createSession({ tools: record, agent: () => "" });
    const assigned = () => "second";
    record.danger = assigned;
    loose.close();
    expect(record.danger).toBe(assigned);
  });

  test("a frozen tools record, a frozen class instance and a frozen AI SDK tool are refused with a StubConfigError", () => {
    class Frozen {
      danger() {
        return 1;
      }
    }
    const cases: unknown[] = [
      Object.freeze({ danger: () => 1 }),
      Object.freeze(new Frozen()),
      { danger: Object.freeze(tool({ inputSchema: z.object({}), execute: async () => 1 })) },
    ];
    for (const tools of cases) {
      let caught: unknown;
      try {
        createSession({ tools: tools as never, agent: () => "" });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(StubConfigError);
      expect((caught as Error).message).toContain("`tools.danger` cannot be caught");
      expect((caught as Error).message).toContain("Fix: pass the tools before freezing them");
    }
  });

  test("out of reach: a function taken from the record before the session; strict mode still fails the turn the model asked for it in", async () => {
    let real = 0;
    const tools = { danger: async (_input: { x: string }) => ((real += 1), "real") };
    const taken = tools.danger;
    const model = mockModel([{ toolCalls: [{ name: "danger", input: { x: "y" } }] }, "done"]);
    const session = createSession({
      tools,
      strict: true,
      stubs: STUB,
      agent: async (message) =>
        (
          await generateText({
            model,
            tools: { danger: tool({ inputSchema: z.object({ x: z.string() }), execute: (input) => taken(input) }) },
            prompt: message,
            stopWhen: stepCountIs(3),
          })
        ).text,
    });
    const turn = await session.send("go");
    expect(real).toBe(1);
    expect(turn).not.toSucceed();
    expect(session.takeViolations()).toEqual([
      "the model asked for danger, and a result came back, but no call of danger reached tooltrace: is its executor among the session's tools?",
    ]);
  });
});
