import { setDefaultOpenAIKey, type AgentInputItem } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type ToolStub } from "tooltrace";
import { agentsSdkAgent, agentsSdkTools } from "tooltrace/agents-sdk";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { supportModel } from "../support-model.js";
import { supportDesk } from "./agent.js";

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({ respond: supportModel, models: ["gpt-4.1-mini"] });
  setDefaultOpenAIKey("sk-test"); // any key: the wire mock answers
});
afterAll(() => llm.close());

function session(stubs: ToolStub[]) {
  const triage = supportDesk();
  // The handed-to agent is the subagent path `billing`: its calls are `billing/lookup_order`, `billing/refund_order`.
  return createSession<AgentInputItem>({ agent: agentsSdkAgent(triage), ...agentsSdkTools(triage), stubs, strict: true });
}

describe("support desk (OpenAI Agents SDK, a handoff to billing, Responses on the wire)", () => {
  test("triage hands the refund to billing, which refunds a delivered order", async () => {
    const turn = await session([
      {
        id: "delivered",
        tool: "billing/lookup_order",
        match: { order_id: { const: "A17" } },
        outcome: { response: { id: "A17", status: "delivered" } },
      },
      { id: "refund", tool: "billing/refund_order", outcome: { response: { refunded: true } } },
    ]).send("Please refund order #A17, it arrived broken.");
    expect(turn).toSucceed();
    expect(turn).toHaveToolOrder([
      "transfer_to_billing",
      "billing/lookup_order",
      { tool: "billing/refund_order", input: { order_id: "A17" } },
    ]);
    expect(turn).toHaveMessageIncluding("Refunded order #A17.");
  });

  test("billing does not refund an order still in transit", async () => {
    const turn = await session([
      { id: "in-transit", tool: "billing/lookup_order", outcome: { response: { id: "B2", status: "in transit" } } },
    ]).send("Refund #B2 please");
    expect(turn).toHaveCalledTool("transfer_to_billing", { output: { assistant: "billing" } });
    expect(turn).not.toHaveCalledTool("billing/refund_order", { status: "any" });
    expect(turn).toHaveMessageIncluding(/in transit, so it cannot be refunded/);
  });
});
