import { generateText, stepCountIs, tool } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, grader, mockModel, scrubber, useMiddleware, type MockModelRequest, type Middleware } from "tooltrace";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

/** A search agent on the AI SDK: the model searches once, then answers with what it read. */
function searchAgent(realRuns: string[]) {
  const tools = {
    search: tool({
      description: "Search the incident tracker.",
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => (realRuns.push(query), { hits: [`INC-4821: ${query} rolled back`, `INC-5000: ${query} fine`] }),
    }),
  };
  const seen: MockModelRequest[] = [];
  const model = mockModel((request: MockModelRequest) => {
    seen.push(request);
    const result = request.toolResults.at(-1);
    if (result === undefined) return { toolCalls: [{ name: "search", input: { query: request.lastUserMessage ?? "" } }] };
    return result.isError ? `Search failed: ${String(result.output)}` : `Found: ${JSON.stringify(result.output)}`;
  });
  const agent = async (message: string) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(3) })).text;
  return { tools, agent, seen };
}

afterEach(() => useMiddleware([]));

describe("onToolCall, Koa-style, in declaration order", () => {
  test("a result returned without calling handler: the tool never runs, the model sees that result", async () => {
    const realRuns: string[] = [];
    const { tools, agent, seen } = searchAgent(realRuns);
    const cached: Middleware = { name: "cache", onToolCall: () => ({ hits: ["from the cache"] }) };
    const turn = await createSession({ agent, tools, middleware: [cached] }).send("deploy");
    expect(realRuns).toEqual([]);
    expect(seen[1]?.toolResults[0]?.output).toEqual({ hits: ["from the cache"] });
    expect(turn).toHaveCalledTool("search", { output: { hits: ["from the cache"] } });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "middleware", name: "cache" });
  });

  test("handler(changedInput): the tool runs with the new arguments; the trace keeps both", async () => {
    const realRuns: string[] = [];
    const { tools, agent } = searchAgent(realRuns);
    const redact: Middleware = {
      name: "redact",
      onToolCall: ({ input, handler }) => handler({ query: String((input as { query: string }).query).replace(/\d{4}-\d{4}/, "[card]") }),
    };
    const turn = await createSession({ agent, tools, middleware: [redact] }).send("card 1234-5678");
    expect(realRuns).toEqual(["card [card]"]);
    expect(turn.toolCalls[0]).toMatchObject({
      input: { query: "card [card]" },
      originalInput: { query: "card 1234-5678" },
      changes: [{ by: "redact", what: "input" }],
      answeredBy: { kind: "real" },
    });
  });

  test("a transformed result is what the model sees, credited to the middleware that changed it, also across awaits", async () => {
    const realRuns: string[] = [];
    const { tools, agent, seen } = searchAgent(realRuns);
    const order: string[] = [];
    const outer: Middleware = {
      name: "outer",
      async onToolCall({ input, handler }) {
        order.push("outer in");
        const out = await handler(input);
        order.push("outer out");
        return out;
      },
    };
    const upper: Middleware = {
      name: "upper",
      async onToolCall({ input, handler }) {
        order.push("upper in");
        const out = (await handler(input)) as { hits: string[] };
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push("upper out");
        return { hits: out.hits.map((hit) => hit.toUpperCase()) };
      },
    };
    const turn = await createSession({ agent, tools, middleware: [outer, upper] }).send("deploy");
    expect(order).toEqual(["outer in", "upper in", "upper out", "outer out"]);
    expect(seen[1]?.toolResults[0]?.output).toEqual({ hits: ["INC-4821: DEPLOY ROLLED BACK", "INC-5000: DEPLOY FINE"] });
    expect(turn.toolCalls[0]?.output).toEqual({ hits: ["INC-4821: DEPLOY ROLLED BACK", "INC-5000: DEPLOY FINE"] });
    expect(turn.toolCalls[0]?.changes).toEqual([{ by: "upper", what: "output" }]);
  });

  test("fail(message) blocks a call: the agent sees a failed tool and recovers; the test does not fail for it", async () => {
    const realRuns: string[] = [];
    const { tools, agent } = searchAgent(realRuns);
    const guard: Middleware = {
      name: "guard",
      onToolCall: ({ input, handler, fail }) =>
        String((input as { query: string }).query).includes("prod") ? fail("searching prod is not allowed") : handler(input),
    };
    const session = createSession({ agent, tools, middleware: [guard] });
    const turn = await session.send("prod outage");
    expect(realRuns).toEqual([]);
    expect(turn).toHaveFailedAction("search", { error: "searching prod is not allowed" });
    // The AI SDK gives the model the error's message (ai 5 and 6) or its string form (ai 7).
    expect(turn.text).toMatch(/^Search failed: (Error: )?searching prod is not allowed$/);
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "middleware", name: "guard" });
    expect(session.takeViolations()).toEqual([]);
  });

  test("stubs come after middleware: a middleware transforms what a stub answered", async () => {
    const { tools, agent } = searchAgent([]);
    const count: Middleware = {
      name: "count",
      onToolCall: async ({ handler }) => ({ count: ((await handler()) as { hits: unknown[] }).hits.length }),
    };
    const turn = await createSession({
      agent,
      tools,
      strict: true,
      middleware: [count],
      stubs: [{ id: "one", tool: "search", outcome: { response: { hits: ["stubbed"] } } }],
    }).send("x");
    expect(turn).toHaveCalledTool("search", { output: { count: 1 } });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "one", outcomeIndex: 0 });
  });
});

describe("beforeEval, afterEval, data and results", () => {
  test("beforeEval rewrites the message; data flows to afterEval; results are kept by name and read by later middleware", async () => {
    const { tools, agent } = searchAgent([]);
    const prefix: Middleware = { name: "prefix", beforeEval: ({ message }) => `rollback ${message}` };
    const tally: Middleware = {
      name: "tally",
      onToolCall: async ({ handler, ctx }) => {
        ctx.data.searches = ((ctx.data.searches as number | undefined) ?? 0) + 1;
        return handler();
      },
      afterEval: ({ ctx, toolCalls }) => ({ searches: ctx.data.searches, calls: toolCalls.length }),
    };
    const summary: Middleware = {
      name: "summary",
      afterEval: ({ ctx }) => `tally saw ${String((ctx.results.tally as { searches: number }).searches)}`,
    };
    const nothing: Middleware = { name: "nothing", afterEval: () => undefined };
    const turn = await createSession({ agent, tools, middleware: [prefix, tally, summary, nothing] }).send("deploy");
    expect(turn.userMessage).toBe("rollback deploy");
    expect(turn.originalUserMessage).toBe("deploy");
    expect(turn).toHaveCalledTool("search", { input: { query: "rollback deploy" } });
    expect(turn.results).toEqual({ tally: { searches: 1, calls: 1 }, summary: "tally saw 1" });
    expect(turn).toHaveResult("tally", { searches: 1 });
    expect(turn).not.toHaveResult("nothing");
    expect(() => expect(turn).toHaveResult("tally", { searches: 2 })).toThrow(
      /Expected: result of middleware "tally" matching[\s\S]*"searches": 2/,
    );
  });

  test("ctx.abort(reason) ends the turn: the agent's signal aborts and the turn fails with the reason", async () => {
    let aborted: unknown;
    const stop: Middleware = { name: "budget", onToolCall: ({ ctx }) => ctx.abort("one search is the budget") };
    const tools = { search: async (_input: { query: string }) => ({ hits: [] }) };
    const agent = async (_message: string, { signal }: { signal: AbortSignal }) => {
      signal.addEventListener("abort", () => (aborted = signal.reason));
      await tools.search({ query: "a" }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return "kept going";
    };
    const session = createSession({ agent, tools, middleware: [stop] });
    const turn = await session.send("go");
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toContain('turn 0 aborted by middleware "budget": one search is the budget');
    expect(String(aborted)).toContain("one search is the budget");
    expect(session.takeViolations()).toEqual([]);
  });

  test("a middleware that throws fails the turn and the test, naming it and the phase", async () => {
    const { tools, agent } = searchAgent([]);
    const broken: Middleware = {
      name: "broken-grader",
      afterEval: () => {
        throw new Error("expected answer missing from config");
      },
    };
    const session = createSession({ agent, tools, middleware: [broken] });
    const turn = await session.send("deploy");
    expect(turn.status).toBe("failed");
    expect(session.takeViolations()).toEqual(['middleware "broken-grader" threw in afterEval: Error: expected answer missing from config']);
  });

  test("names must be unique and phases functions, checked at createSession", () => {
    const agent = () => "ok";
    expect(() =>
      createSession({
        agent,
        middleware: [
          { name: "a", afterEval: () => 1 },
          { name: "a", afterEval: () => 2 },
        ],
      }),
    ).toThrow('two middleware are named "a"');
    expect(() => createSession({ agent, middleware: [{ name: "b", onToolCall: "nope" } as unknown as Middleware] })).toThrow(
      'middleware "b": `onToolCall` must be a function, got string',
    );
    expect(() => createSession({ agent, middleware: [{ afterEval: () => 1 } as unknown as Middleware] })).toThrow(
      "middleware[0] needs a `name`",
    );
  });

  test("useMiddleware applies to every session created after it, before the session's own", async () => {
    const { tools, agent } = searchAgent([]);
    const seen: string[] = [];
    useMiddleware([{ name: "shared", beforeEval: ({ message }) => void seen.push(`shared ${message}`) }]);
    await createSession({
      agent,
      tools,
      middleware: [{ name: "own", beforeEval: ({ message }) => void seen.push(`own ${message}`) }],
    }).send("hi");
    expect(seen).toEqual(["shared hi", "own hi"]);
    expect(() => createSession({ agent, tools, middleware: [{ name: "shared", afterEval: () => 1 }] })).toThrow(
      'two middleware are named "shared"',
    );
  });
});

describe("ctx.callLLM and the shipped middleware", () => {
  test("ctx.callLLM asks the session's model, traced as a model call of the turn", async () => {
    const asked: string[] = [];
    const judge: Middleware = { name: "judge", afterEval: async ({ ctx, answer }) => ctx.callLLM(`Is this polite? ${answer}`) };
    const session = createSession({
      agent: () => "Thanks for asking!",
      llm: (request: MockModelRequest) => (asked.push(request.lastUserMessage ?? ""), "yes, polite"),
      middleware: [judge],
    });
    const turn = await session.send("hi");
    expect(turn.results).toEqual({ judge: "yes, polite" });
    expect(asked).toEqual(["Is this polite? Thanks for asking!"]);
    expect(turn.modelCalls.map((call) => [call.provider, call.reply.text])).toEqual([["tooltrace.callLLM", "yes, polite"]]);
  });

  test("ctx.callLLM without a session model fails loudly, saying what to pass", async () => {
    const judge: Middleware = { name: "judge", afterEval: ({ ctx }) => ctx.callLLM("grade") };
    const session = createSession({ agent: () => "ok", middleware: [judge] });
    const turn = await session.send("hi");
    expect(turn.status).toBe("failed");
    expect(session.takeViolations()[0]).toMatch(
      /middleware "judge" threw in afterEval: TooltraceError: .*ctx\.callLLM needs the session's model: create session \d+ with `llm`/,
    );
  });

  test("scrubber removes every result item that mentions the source, so the agent cannot read it", async () => {
    const realRuns: string[] = [];
    const { tools, agent, seen } = searchAgent(realRuns);
    const turn = await createSession({ agent, tools, middleware: [scrubber({ remove: ["INC-4821"] })] }).send("deploy");
    expect(realRuns).toEqual(["deploy"]);
    expect(JSON.stringify(seen.map((request) => request.messages))).not.toContain("INC-4821");
    expect(turn.text).toBe('Found: {"hits":["INC-5000: deploy fine"]}');
    expect(turn).toHaveResult("scrubber", { removed: 1 });
    expect(turn.toolCalls[0]?.changes).toEqual([{ by: "scrubber", what: "output" }]);
  });

  test("scrubber also hides a failure whose message mentions the source", async () => {
    const tools = { search: async (_input: { query: string }): Promise<unknown> => Promise.reject(new Error("INC-4821 is archived")) };
    const seen: string[] = [];
    const agent = async () => String(await tools.search({ query: "x" }).catch((error: Error) => (seen.push(error.message), "recovered")));
    const turn = await createSession({ agent, tools, middleware: [scrubber({ remove: ["INC-4821"] })] }).send("go");
    expect(seen).toEqual(["[scrubbed]"]);
    expect(turn).toHaveResult("scrubber", { removed: 1 });
  });

  test("grader checks the final answer by text, or asks the model", async () => {
    const { tools, agent } = searchAgent([]);
    const byText = await createSession({ agent, tools, middleware: [grader({ expected: "rolled back" })] }).send("deploy");
    expect(byText).toHaveResult("grader", { pass: true, expected: "rolled back" });
    const wrong = await createSession({ agent, tools, middleware: [grader({ expected: /canary/ })] }).send("deploy");
    expect(wrong).toHaveResult("grader", { pass: false });
    const byModel = await createSession({
      agent,
      tools,
      llm: (request: MockModelRequest) => (request.lastUserMessage?.includes("Expected: rollback") ? "PASS: it says so" : "FAIL"),
      middleware: [grader({ expected: "rollback", by: "llm" })],
    }).send("deploy");
    expect(byModel.results.grader).toMatchObject({ pass: true, reason: "it says so" });
    // A global RegExp keeps no state between turns.
    const global = createSession({ agent, tools, middleware: [grader({ expected: /rolled back/g })] });
    expect(await global.send("deploy")).toHaveResult("grader", { pass: true });
    expect(await global.send("deploy")).toHaveResult("grader", { pass: true });
  });
});
