import { Agent, run, setDefaultOpenAIKey, tool } from "@openai/agents";
import { beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, type MockModelRequest } from "tooltrace";
import { agentsSdkAgent, agentsSdkTools } from "tooltrace/agents-sdk";

// With the Agents SDK's own run() (an app needs it to stream), the calls after a handoff kept the path [], so a
// rule for `billing/refund_order` never answered; and agentsSdkAgent had no streaming form.
beforeAll(() => setDefaultOpenAIKey("sk-test")); // any key: the session's model answers on the wire

function triageAgents(realRuns: string[]) {
  const refund = tool({
    name: "refund_order",
    description: "Refund an order.",
    parameters: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => (realRuns.push(order_id), "refunded for real"),
  });
  const billing = new Agent({ name: "billing", instructions: "You handle refunds.", model: "gpt-4.1", tools: [refund] });
  const triage = new Agent({ name: "triage", instructions: "You route requests.", model: "gpt-4.1", handoffs: [billing] });
  return { triage, billing };
}

/** Triage hands off to billing; billing refunds, then says so. */
const model = (request: MockModelRequest) => {
  if (!request.messages.some((message) => message.text.includes("You handle refunds")))
    return { toolCalls: [{ name: "transfer_to_billing", input: {} }] };
  return request.toolResults.some((result) => result.name === "refund_order")
    ? "Refunded A1."
    : { toolCalls: [{ name: "refund_order", input: { order_id: "A1" } }] };
};

const stubs = [{ id: "refund", tool: "billing/refund_order", outcome: { response: "refunded" } }];

describe("a handoff's calls are in the handed-to agent's path, streamed", () => {
  test("agentsSdkAgent(agent, { stream: true })", async () => {
    const realRuns: string[] = [];
    const { triage } = triageAgents(realRuns);
    const session = createSession({
      agent: agentsSdkAgent(triage, { stream: true }),
      ...agentsSdkTools(triage),
      llm: model,
      strict: true,
      stubs,
    });
    const turn = await session.send("Refund A1.");
    expect(turn).toSucceed();
    expect(turn.text).toBe("Refunded A1.");
    expect(turn.toolCalls.map((call) => call.qualifiedName)).toEqual(["transfer_to_billing", "billing/refund_order"]);
    expect(realRuns).toEqual([]);
  });

  test("the app's own run(agent, input, { stream: true })", async () => {
    const realRuns: string[] = [];
    const { triage } = triageAgents(realRuns);
    const agent = async (message: string) => {
      const stream = await run(triage, message, { stream: true });
      for await (const _event of stream) {
        // As the app's UI reads it.
      }
      await stream.completed;
      return String(stream.finalOutput ?? "");
    };
    const session = createSession({ agent, ...agentsSdkTools(triage), llm: model, strict: true, stubs });
    const turn = await session.send("Refund A1.");
    expect(turn).toSucceed();
    expect(turn.toolCalls.map((call) => call.qualifiedName)).toEqual(["transfer_to_billing", "billing/refund_order"]);
    expect(turn).toHaveCalledTool("billing/refund_order", { output: "refunded" });
    expect(realRuns).toEqual([]);
  });
});
