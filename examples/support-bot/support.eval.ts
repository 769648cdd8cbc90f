import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { supportBot, supportTools } from "./agent.js";

/** The model, scripted on the wire: it reads the conversation the OpenAI API receives. */
function supportModel({ lastUserMessage, messages }: MockModelRequest): MockModelResponse | string {
  const orderId = /#(\w+)/.exec(lastUserMessage ?? "")?.[1];
  const last = messages.at(-1);
  if (last?.role === "user")
    return orderId
      ? { toolCalls: [{ name: "lookup_order", input: { order_id: orderId } }] }
      : "Which order is it about? Please give me its number.";
  const result = last?.toolResults?.[0];
  if (result?.name === "lookup_order") {
    const order = result.output as { status: string };
    if (order.status !== "delivered") return `Order #${orderId} is ${order.status}, so it cannot be refunded yet.`;
    return { toolCalls: [{ name: "refund_order", input: { order_id: orderId, reason: "customer request" } }] };
  }
  if (result?.name === "refund_order") return `Refunded order #${orderId}.`;
  return "Sorry, something went wrong.";
}

let llm: LlmServer;
let client: OpenAI;
beforeAll(() => {
  llm = startLlmServer({ respond: supportModel, models: ["gpt-4o-mini"] });
  client = new OpenAI({ apiKey: "sk-test" }); // built after MSW starts, so its fetch is intercepted
});
afterAll(() => llm.close());

function session(stubs: Parameters<typeof createSession>[0]["stubs"]) {
  return createSession<OpenAI.ChatCompletionMessageParam>({
    tools: supportTools,
    stubs,
    strict: true,
    agent: (message, { history }) => supportBot(client, [...history], message),
  });
}

describe("support bot (OpenAI SDK, model on the wire)", () => {
  test("refunds a delivered order", async () => {
    const s = session([
      {
        id: "delivered",
        tool: "lookup_order",
        match: { order_id: { const: "A17" } },
        outcome: { response: { id: "A17", status: "delivered" } },
      },
      { id: "refund", tool: "refund_order", outcome: { response: { refunded: true } } },
    ]);
    const turn = await s.send("Please refund order #A17, it arrived broken.");
    expect(turn).toSucceed();
    expect(turn).toHaveToolOrder(["lookup_order", { tool: "refund_order", input: { order_id: "A17" } }]);
    expect(turn).toHaveMessageIncluding("Refunded order #A17.");
    expect(turn).toHaveModelCalls(3);
  });

  test("does not refund an order still in transit", async () => {
    const s = session([{ id: "in-transit", tool: "lookup_order", outcome: { response: { id: "B2", status: "in transit" } } }]);
    const turn = await s.send("Refund #B2 please");
    expect(turn).not.toHaveCalledTool("refund_order", { status: "any" });
    expect(turn).toHaveMessageIncluding(/in transit, so it cannot be refunded/);
  });

  test("asks for the order number before calling any tool", async () => {
    const turn = await session([]).send("I want my money back");
    expect(turn).toHaveUsedNoTools();
    expect(turn).toHaveModelCalls(1);
    expect(turn).toHaveOfferedTool("refund_order");
  });
});
