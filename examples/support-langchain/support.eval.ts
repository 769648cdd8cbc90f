import type { BaseMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type ToolStub } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { supportModel } from "../support-model.js";
import { supportAgent, supportTools, supportTurn } from "./agent.js";

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({ respond: supportModel, models: ["gpt-4o-mini"] });
  process.env.OPENAI_API_KEY ??= "sk-test"; // any key: the wire mock answers
});
afterAll(() => llm.close());

function session(stubs: ToolStub[]) {
  const agent = supportAgent();
  // LangChain agents hold their tools in an array; the session takes it as it is.
  return createSession<BaseMessage>({
    tools: supportTools,
    stubs,
    strict: true,
    agent: (message, { history }) => supportTurn(agent, history, message),
  });
}

describe("support bot (LangChain createAgent, ChatOpenAI on the wire)", () => {
  test("refunds a delivered order", async () => {
    const turn = await session([
      {
        id: "delivered",
        tool: "lookup_order",
        match: { order_id: { const: "A17" } },
        outcome: { response: { id: "A17", status: "delivered" } },
      },
      { id: "refund", tool: "refund_order", outcome: { response: { refunded: true } } },
    ]).send("Please refund order #A17, it arrived broken.");
    expect(turn).toSucceed();
    expect(turn).toHaveToolOrder(["lookup_order", { tool: "refund_order", input: { order_id: "A17" } }]);
    expect(turn).toHaveMessageIncluding("Refunded order #A17.");
  });

  test("an order service that is down reaches the agent as LangChain's tool error, and nothing is refunded", async () => {
    const turn = await session([
      { id: "down", tool: "lookup_order", outcome: { throw: { name: "TimeoutError", message: "order service timed out" } } },
    ]).send("Refund #B2 please");
    expect(turn).toHaveFailedAction("lookup_order", { error: "order service timed out" });
    expect(turn).not.toHaveCalledTool("refund_order", { status: "any" });
    expect(turn).toHaveMessageIncluding(/could not look order #B2 up/);
  });
});
