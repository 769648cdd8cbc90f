import { Agent, setDefaultOpenAIKey, tool } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { agentsSdkAgent, agentsSdkTools } from "tooltrace/agents-sdk";
import { startLlmServer, type LlmServer } from "tooltrace/msw";

/** The model, on the wire: the support agent looks the order up and asks billing; billing refunds. */
function supportModel(request: MockModelRequest): MockModelResponse | string {
  const billing = request.messages[0]?.text.includes("You handle refunds");
  const names = request.toolResults.map((result) => result.name);
  if (billing)
    return names.includes("refund_order") ? "Refunded A1." : { toolCalls: [{ name: "refund_order", input: { order_id: "A1" } }] };
  if (names.length === 0) return { toolCalls: [{ name: "lookup_order", input: { order_id: "A1" } }] };
  if (!names.includes("billing")) return { toolCalls: [{ name: "billing", input: { input: "Refund order A1" } }] };
  return `Done: ${String(request.toolResults.at(-1)?.output)}`;
}

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({ respond: supportModel });
  setDefaultOpenAIKey("sk-test"); // any key: the wire mock answers
});
afterAll(() => llm.close());

function agents(realRuns: string[]) {
  const refund = tool({
    name: "refund_order",
    description: "Refund an order.",
    parameters: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => (realRuns.push(`refund ${order_id}`), "refunded for real"),
  });
  const billing = new Agent({ name: "billing", instructions: "You handle refunds.", model: "gpt-4.1", tools: [refund] });
  const lookup = tool({
    name: "lookup_order",
    description: "Look an order up.",
    parameters: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => (realRuns.push(`lookup ${order_id}`), { status: "unknown" }),
  });
  const support = new Agent({
    name: "support",
    instructions: "You are the support agent.",
    model: "gpt-4.1",
    tools: [lookup, billing.asTool({ toolName: "billing", toolDescription: "Ask billing." })],
  });
  return { support, billing };
}

describe("OpenAI Agents SDK function tools are caught through their public invoke", () => {
  test("run(agent) as a turn; an agent used as a tool is a subagent path; stubs answer, nothing real runs", async () => {
    const realRuns: string[] = [];
    const { support, billing } = agents(realRuns);
    const session = createSession({
      agent: agentsSdkAgent(support),
      tools: support.tools,
      subagents: { billing: billing.tools },
      strict: true,
      stubs: [
        { id: "lookup", tool: "lookup_order", match: { order_id: { const: "A1" } }, outcome: { response: { status: "delivered" } } },
        { id: "refund", tool: "billing/refund_order", outcome: { response: { refunded: true } } },
      ],
    });
    const turn = await session.send("Please refund order A1.");
    expect(turn).toSucceed();
    expect(turn.text).toBe("Done: Refunded A1.");
    expect(realRuns).toEqual([]);
    expect(turn.toolCalls.map((call) => [call.qualifiedName, call.answeredBy])).toEqual([
      ["lookup_order", { kind: "stub", ruleId: "lookup", outcomeIndex: 0 }],
      ["billing", { kind: "real" }],
      ["billing/refund_order", { kind: "stub", ruleId: "refund", outcomeIndex: 0 }],
    ]);
    expect(turn).toHaveCalledTool("lookup_order", { input: { order_id: "A1" }, output: { status: "delivered" } });
    expect(turn.toolCalls[0]?.id).toBe(turn.modelCalls[0]?.reply.toolCalls[0]?.id);
  });

  test("a stub's throw reaches the model as the SDK's own tool-error text, as a real failure would", async () => {
    const { support } = agents([]);
    const session = createSession({
      agent: agentsSdkAgent(support),
      tools: support.tools,
      stubs: [{ id: "down", tool: "lookup_order", outcome: { throw: { name: "TimeoutError", message: "order service down" } } }],
    });
    const turn = await session.send("Please refund order A1.");
    expect(turn).toHaveFailedAction("lookup_order", { error: "order service down" });
    const seen = turn.modelCalls[1]?.request as MockModelRequest;
    // The same text a real failure of the tool gets from this SDK's default error function (its wording
    // differs between SDK versions: 0.14 appends the error, 0.20 does not).
    const failing = tool({
      name: "lookup_order",
      description: "Look an order up.",
      parameters: z.object({ order_id: z.string() }),
      execute: async () => {
        throw Object.assign(new Error("order service down"), { name: "TimeoutError" });
      },
    });
    const real = await failing.invoke({} as never, '{"order_id":"A1"}');
    expect(seen.toolResults[0]?.output).toBe(real);
    expect(String(real)).toMatch(/^An error occurred while running the tool\. Please try again\./);
  });
});

describe("a stub's throw goes through the tool's own errorFunction", () => {
  test("the model reads what errorFunction makes of a stub's failure, exactly as of the real failure; the real execute never runs", async () => {
    const runs: string[] = [];
    const make = (fails: boolean) =>
      tool({
        name: "lookup_order",
        description: "Look an order up.",
        parameters: z.object({ order_id: z.string() }),
        execute: async ({ order_id }) => {
          runs.push(order_id);
          if (fails) throw new Error("down");
          return { status: "delivered" };
        },
        errorFunction: (_context, error) => `CUSTOM: ${error instanceof Error ? error.message : String(error)}`,
      });
    const agentWith = (lookup: ReturnType<typeof make>) =>
      new Agent({ name: "support", instructions: "You help customers.", model: "gpt-4.1", tools: [lookup] });
    const readResult = async (lookup: ReturnType<typeof make>, stubs: Parameters<typeof createSession>[0]["stubs"]) => {
      const support = agentWith(lookup);
      const llm = (request: MockModelRequest): MockModelResponse | string =>
        request.toolResults.length > 0 ? "Sorry." : { toolCalls: [{ name: "lookup_order", input: { order_id: "A1" } }] };
      const turn = await createSession({ agent: agentsSdkAgent(support), tools: support.tools, stubs, llm }).send(
        "Please refund order A1.",
      );
      return (turn.modelCalls[1]?.request as MockModelRequest | undefined)?.toolResults[0]?.output;
    };
    const real = await readResult(make(true), []);
    expect(real).toBe("CUSTOM: down");
    expect(runs).toEqual(["A1"]);
    const stubbed = await readResult(make(false), [{ id: "down", tool: "lookup_order", outcome: { throw: { message: "down" } } }]);
    expect(stubbed).toBe("CUSTOM: down");
    expect(runs).toEqual(["A1"]);
  });
});

describe("OpenAI Agents SDK handoffs are subagent paths", () => {
  /** Triage hands off to billing; billing looks the order up with the same tool object, then refunds. */
  function handoffModel(request: MockModelRequest): MockModelResponse | string {
    const names = request.toolResults.map((result) => result.name);
    if (!request.messages[0]?.text.includes("You handle refunds"))
      return names.length === 0 ? { toolCalls: [{ name: "transfer_to_billing", input: {} }] } : "Triage is done.";
    if (names.includes("refund_order")) return `Refunded A1 (${String(request.toolResults.at(-1)?.output)}).`;
    if (names.includes("lookup_order")) return { toolCalls: [{ name: "refund_order", input: { order_id: "A1" } }] };
    return { toolCalls: [{ name: "lookup_order", input: { order_id: "A1" } }] };
  }

  function triageAgents(realRuns: string[]) {
    const lookup = tool({
      name: "lookup_order",
      description: "Look an order up.",
      parameters: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => (realRuns.push(`lookup ${order_id}`), { status: "unknown" }),
    });
    const refund = tool({
      name: "refund_order",
      description: "Refund an order.",
      parameters: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => (realRuns.push(`refund ${order_id}`), "refunded for real"),
    });
    const billing = new Agent({ name: "billing", instructions: "You handle refunds.", model: "gpt-4.1", tools: [lookup, refund] });
    const triage = new Agent({
      name: "triage",
      instructions: "You route customers.",
      model: "gpt-4.1",
      tools: [lookup],
      handoffs: [billing],
    });
    return { triage, billing };
  }

  test("the transfer is traced; the handed-to agent's calls carry its path, and a root rule never answers them", async () => {
    {
      const realRuns: string[] = [];
      const { triage } = triageAgents(realRuns);
      const session = createSession({
        agent: agentsSdkAgent(triage),
        ...agentsSdkTools(triage),
        llm: handoffModel,
        strict: true,
        unusedRules: "ignore",
        stubs: [
          { id: "root-lookup", tool: "lookup_order", outcome: { response: { status: "seen by triage" } } },
          { id: "billing-lookup", tool: "billing/lookup_order", outcome: { response: { status: "delivered" } } },
          { id: "refund", tool: "billing/refund_order", outcome: { response: "refund 77" } },
        ],
      });
      const turn = await session.send("Please refund order A1.");
      expect(turn).toSucceed();
      expect(realRuns).toEqual([]);
      expect(turn.text).toBe("Refunded A1 (refund 77).");
      expect(turn.toolCalls.map((call) => [call.qualifiedName, call.answeredBy?.kind, call.output])).toEqual([
        ["transfer_to_billing", "real", { assistant: "billing" }],
        ["billing/lookup_order", "stub", { status: "delivered" }],
        ["billing/refund_order", "stub", "refund 77"],
      ]);
      expect(turn.toolCalls[0]?.id).toBe(turn.modelCalls[0]?.reply.toolCalls[0]?.id);
      expect(turn).toHaveToolOrder(["transfer_to_billing", "billing/lookup_order", "billing/refund_order"]);
    }
  });

  test("a stub for a handoff is refused at setup, saying what to stub instead", () => {
    const { triage } = triageAgents([]);
    expect(() =>
      createSession({
        agent: agentsSdkAgent(triage),
        ...agentsSdkTools(triage),
        stubs: [{ id: "no", tool: "transfer_to_billing", outcome: { response: {} } }],
      }),
    ).toThrow(/rule "no".*"transfer_to_billing" cannot be stubbed.*OpenAI Agents SDK handoff.*stub the tools of that agent/s);
  });
});
