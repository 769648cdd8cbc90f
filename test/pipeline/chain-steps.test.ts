import { generateText, stepCountIs, tool } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel, type Step } from "tooltrace";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

describe("one chain for every kind, with a public step API", () => {
  test("a step rewrites a tool's input and transforms its result; the trace says who changed what", async () => {
    const tools = { search: (input: { query: string }) => ({ hits: [`real result for ${input.query}`] }) };
    const normalize: Step = {
      name: "normalize-query",
      run: (ctx, next) => (ctx.kind === "tool" ? next({ query: String((ctx.input as { query: string }).query).toLowerCase() }) : next()),
    };
    const scrub: Step = {
      name: "scrub",
      run: (ctx, next) =>
        ctx.kind === "tool"
          ? ctx.transform(next(), (out) => ({ hits: (out as { hits: string[] }).hits.map((hit) => hit.replace("real", "[scrubbed]")) }))
          : next(),
    };
    const session = createSession({ tools, steps: [scrub, normalize], agent: () => JSON.stringify(tools.search({ query: "MILK" })) });
    const turn = await session.send("go");
    expect(turn.text).toBe('{"hits":["[scrubbed] result for milk"]}');
    const [call] = turn.toolCalls;
    expect(call).toMatchObject({
      input: { query: "milk" },
      originalInput: { query: "MILK" },
      output: { hits: ["[scrubbed] result for milk"] },
      answeredBy: { kind: "real" },
    });
    expect(call?.changes).toEqual([
      { by: "normalize-query", what: "input" },
      { by: "scrub", what: "output" },
    ]);
  });

  test("a step answers without the real thing; stubs and strict come after it", async () => {
    let realRuns = 0;
    const tools = { lookup: (_input: { id: string }) => ((realRuns += 1), "real") };
    const cache: Step = {
      name: "cache",
      run: (ctx, next) =>
        ctx.kind === "tool" && (ctx.input as { id: string }).id === "hot"
          ? ctx.answer("cached", { kind: "middleware", name: "cache" })
          : next(),
    };
    const session = createSession({
      tools,
      strict: true,
      steps: [cache],
      stubs: [{ id: "cold", tool: "lookup", outcome: { response: "stubbed" } }],
      agent: () => `${tools.lookup({ id: "hot" })} ${tools.lookup({ id: "cold" })}`,
    });
    const turn = await session.send("go");
    expect(turn.text).toBe("cached stubbed");
    expect(turn.toolCalls.map((call) => call.answeredBy)).toEqual([
      { kind: "middleware", name: "cache" },
      { kind: "stub", ruleId: "cold", outcomeIndex: 0 },
    ]);
    expect(realRuns).toBe(0);
  });

  test("model calls go through the same chain: a step sees the request view and can answer for the model", async () => {
    const seen: string[] = [];
    const observe: Step = {
      name: "observe",
      run: (ctx, next) => {
        seen.push(`${ctx.kind}:${ctx.name}`);
        if (ctx.kind === "model" && (ctx.input as { lastUserMessage: string }).lastUserMessage === "canned?") {
          return ctx.answer(
            { text: "canned answer", toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
            { kind: "middleware", name: "observe" },
          );
        }
        // A bare string answers with text only.
        if (ctx.kind === "model" && (ctx.input as { lastUserMessage: string }).lastUserMessage === "short?")
          return ctx.answer("short answer", { kind: "middleware", name: "observe" });
        return next();
      },
    };
    const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["a"] }) };
    const model = mockModel([{ toolCalls: [{ name: "list_tasks" }] }, "one task"]);
    const session = createSession({
      tools,
      steps: [observe],
      agent: async (message) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(3) })).text,
    });
    expect((await session.send("tasks?")).text).toBe("one task");
    const canned = await session.send("canned?");
    expect(canned.text).toBe("canned answer");
    expect(canned.modelCalls[0]?.answeredBy).toEqual({ kind: "middleware", name: "observe" });
    const short = await session.send("short?");
    expect(short.text).toBe("short answer");
    expect(short.modelCalls[0]?.reply).toEqual({ text: "short answer", toolCalls: [] });
    expect(seen).toEqual([
      "model:tooltrace mock-model",
      "tool:list_tasks",
      "model:tooltrace mock-model",
      "model:tooltrace mock-model",
      "model:tooltrace mock-model",
    ]);
  });

  test("a step with `kinds` sees only those kinds; the model and HTTP calls pass it by", async () => {
    const seen: string[] = [];
    const onlyTools: Step = {
      name: "only-tools",
      kinds: ["tool"],
      run: (ctx, next) => (seen.push(`${ctx.kind}:${ctx.name}`), ctx.transform(next(), (out) => [...(out as string[]), "scrubbed"])),
    };
    const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["a"] }) };
    const model = mockModel([{ toolCalls: [{ name: "list_tasks" }] }, ({ toolResults }) => JSON.stringify(toolResults[0]?.output)]);
    const session = createSession({
      tools,
      steps: [onlyTools],
      agent: async (message) => (await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(3) })).text,
    });
    const turn = await session.send("tasks?");
    expect(seen).toEqual(["tool:list_tasks"]);
    expect(turn.text).toBe('["a","scrubbed"]');
    expect(turn.toolCalls[0]?.changes).toEqual([{ by: "only-tools", what: "output" }]);
  });

  test("steps are checked at setup", () => {
    expect(() =>
      createSession({ agent: () => "", tools: {}, steps: [{ name: "typo", kinds: ["tools"] as never, run: (_ctx, next) => next() }] }),
    ).toThrow('step "typo" has kinds ["tools"]; each must be one of "tool", "model", "http"');
    expect(() => createSession({ agent: () => "", tools: {}, steps: [{ name: "", run: () => undefined }] })).toThrow(
      "step #0 must be { name: string, run(ctx, next) }",
    );
    const step: Step = { name: "same", run: (_ctx, next) => next() };
    expect(() => createSession({ agent: () => "", tools: {}, steps: [step, step] })).toThrow('two steps are named "same"');
  });
});
