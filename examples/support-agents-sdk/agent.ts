import { Agent, tool } from "@openai/agents";
import { z } from "zod";

/** The order tools, as Agents SDK function tools: the real ones would call the order and refund services. */
const lookupOrder = tool({
  name: "lookup_order",
  description: "Look up an order by id.",
  parameters: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => {
    throw new Error(`order service not reachable for ${order_id}`);
  },
});
const refundOrder = tool({
  name: "refund_order",
  description: "Refund a delivered order.",
  parameters: z.object({ order_id: z.string(), reason: z.string() }),
  execute: async ({ order_id, reason }) => {
    throw new Error(`refund service not reachable for ${order_id} (${reason})`);
  },
});

/**
 * A support desk on the OpenAI Agents SDK: triage answers order questions and hands refunds off to billing,
 * which shares the order lookup. Nothing in it knows about tests.
 */
export function supportDesk() {
  const billing = new Agent({
    name: "billing",
    instructions: "You handle refunds. Refund only delivered orders.",
    model: "gpt-4.1-mini",
    tools: [lookupOrder, refundOrder],
  });
  const triage = new Agent({
    name: "triage",
    instructions: "You answer order questions and hand refunds to billing.",
    model: "gpt-4.1-mini",
    tools: [lookupOrder],
    handoffs: [billing],
  });
  return triage;
}
