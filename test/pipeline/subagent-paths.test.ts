import { generateText, stepCountIs, tool, type LanguageModel, type ToolSet } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, inSubagent, mockModel } from "tooltrace";
import { aiSdkAgent } from "tooltrace/ai-sdk";

/** Root and researcher share ONE tools record, as teams often write it. */
function sharedTools(realCalls: string[]) {
  const tools = {
    list_tasks: tool({ inputSchema: z.object({}), execute: async () => (realCalls.push("list_tasks"), ["real task"]) }),
  };
  const researcher = tool({
    inputSchema: z.object({ question: z.string() }),
    execute: ({ question }) =>
      inSubagent("researcher", async () => {
        const sub = await generateText({
          model: mockModel([
            { toolCalls: [{ name: "list_tasks" }] },
            ({ toolResults }) => `research: ${JSON.stringify(toolResults[0]?.output)}`,
          ]),
          tools,
          prompt: question,
          stopWhen: stepCountIs(3),
        });
        return sub.text;
      }),
  });
  return { tools, rootTools: { ...tools, researcher } };
}

/** A session over the root agent, the researcher's tools at its path, a root rule and a researcher rule. */
function researchSession(rootTools: ToolSet, tools: ToolSet, model: LanguageModel) {
  return createSession({
    agent: aiSdkAgent({ model, tools: rootTools }),
    tools: rootTools,
    subagents: { researcher: tools },
    stubs: [
      { id: "root", tool: "list_tasks", outcome: { response: ["Root task"] } },
      { id: "research", tool: "researcher/list_tasks", outcome: { response: ["Research task"] } },
    ],
  });
}

describe("tool identity comes from the agent path active at the call", () => {
  test("root and subagent sharing one tools record: the root call is the root's, the subagent's is researcher/", async () => {
    const realCalls: string[] = [];
    const { tools, rootTools } = sharedTools(realCalls);
    const model = mockModel([
      { toolCalls: [{ name: "list_tasks" }] },
      { toolCalls: [{ name: "researcher", input: { question: "what?" } }] },
      "done",
    ]);
    const session = researchSession(rootTools, tools, model);
    const turn = await session.send("go");
    expect(turn.toolCalls.map((call) => [call.qualifiedName, call.answeredBy])).toEqual([
      ["list_tasks", { kind: "stub", ruleId: "root", outcomeIndex: 0 }],
      ["researcher", { kind: "real" }],
      ["researcher/list_tasks", { kind: "stub", ruleId: "research", outcomeIndex: 0 }],
    ]);
    expect(turn).toHaveCalledTool("researcher", { output: 'research: ["Research task"]' });
    expect(realCalls).toEqual([]);
    // The subagent's model call carries its path too.
    expect(turn.modelCalls.map((call) => call.path)).toEqual([[], [], ["researcher"], ["researcher"], []]);
  });

  test("a root rule never matches the subagent's same-named tool, even on a shared record", async () => {
    const realCalls: string[] = [];
    const { tools, rootTools } = sharedTools(realCalls);
    const model = mockModel([{ toolCalls: [{ name: "researcher", input: { question: "what?" } }] }, "done"]);
    const session = createSession({
      agent: aiSdkAgent({ model, tools: rootTools }),
      tools: rootTools,
      subagents: { researcher: tools },
      stubs: [{ id: "root", tool: "list_tasks", outcome: { response: ["Root task"] } }],
      unusedRules: "ignore",
    });
    const turn = await session.send("go");
    expect(turn).toHaveCalledTool("researcher/list_tasks", { output: ["real task"], count: 1 });
    expect(turn).not.toHaveCalledTool("list_tasks");
    expect(realCalls).toEqual(["list_tasks"]);
  });

  test("inSubagent nests paths and does nothing outside a turn", async () => {
    expect(inSubagent("a", () => 42)).toBe(42);
    const tools = { ping: (input: { n: number }) => input.n };
    const session = createSession({
      tools,
      subagents: { a: tools, "a/b": tools },
      agent: () => {
        tools.ping({ n: 0 });
        inSubagent("a", () => {
          tools.ping({ n: 1 });
          inSubagent("b", () => tools.ping({ n: 2 }));
        });
        return "ok";
      },
    });
    const turn = await session.send("go");
    expect(turn.toolCalls.map((call) => call.qualifiedName)).toEqual(["ping", "a/ping", "a/b/ping"]);
    expect(() => inSubagent("", () => 1)).toThrow(/must name the subagent/);
  });

  test("a delegation tool named like a subagent path runs its subagent in that path, without inSubagent", async () => {
    const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["real task"] }) };
    // The researcher's executor runs another generateText over the SAME tools record, with no helper.
    const researcher = tool({
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) =>
        (
          await generateText({
            model: mockModel([{ toolCalls: [{ name: "list_tasks" }] }, "researched"]),
            tools,
            prompt: question,
            stopWhen: stepCountIs(3),
          })
        ).text,
    });
    const rootTools = { ...tools, researcher };
    const model = mockModel([{ toolCalls: [{ name: "list_tasks" }, { name: "researcher", input: { question: "q" } }] }, "done"]);
    const session = researchSession(rootTools, tools, model);
    const turn = await session.send("go");
    expect(
      turn.toolCalls.map((call) => [call.qualifiedName, call.answeredBy?.kind === "stub" ? call.answeredBy.ruleId : call.answeredBy?.kind]),
    ).toEqual([
      ["list_tasks", "root"],
      ["researcher", "real"],
      ["researcher/list_tasks", "research"],
    ]);
  });
});
