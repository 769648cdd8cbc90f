import { Agent, setDefaultOpenAIKey, tool } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { agentsSdkAgent } from "tooltrace/agents-sdk";
import { startLlmServer, type LlmServer } from "tooltrace/msw";

/** The model, on the wire: the support agent looks the order up and asks billing; billing refunds. */
function supportModel(request: MockModelRequest): MockModelResponse | string {
  const billing = request.messages[0]?.text.includes("You handle refunds");
  const names = request.toolResults.map((result) => result.name);
  if (billing) return names.includes("refund_order") ? "Refunded A1." : { toolCalls: [{ name: "refund_order", input: { order_id: "A1" } }] };
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
  const refund = tool({ name: "refund_order", description: "Refund an order.", parameters: z.object({ order_id: z.string() }), execute: async ({ order_id }) => (realRuns.push(`refund ${order_id}`), "refunded for real") });
  const billing = new Agent({ name: "billing", instructions: "You handle refunds.", model: "gpt-4.1", tools: [refund] });
  const lookup = tool({ name: "lookup_order", description: "Look an order up.", parameters: z.object({ order_id: z.string() }), execute: async ({ order_id }) => (realRuns.push(`lookup ${order_id}`), { status: "unknown" }) });
  const support = new Agent({ name: "support", instructions: "You are the support agent.", model: "gpt-4.1", tools: [lookup, billing.asTool({ toolName: "billing", toolDescription: "Ask billing." })] });
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
    expect(seen.toolResults[0]?.output).toBe("An error occurred while running the tool. Please try again. Error: TimeoutError: order service down");
  });
});
