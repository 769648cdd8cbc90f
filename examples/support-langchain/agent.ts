import { ChatOpenAI } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import type { BaseMessage } from "@langchain/core/messages";
import { createAgent } from "langchain";
import { z } from "zod";

/** The support bot's tools, as LangChain `tool()` objects: the real ones would call the order and refund services. */
export const supportTools = [
  tool(
    async ({ order_id }: { order_id: string }) => {
      throw new Error(`order service not reachable for ${order_id}`);
    },
    { name: "lookup_order", description: "Look up an order by id.", schema: z.object({ order_id: z.string() }) },
  ),
  tool(
    async ({ order_id, reason }: { order_id: string; reason: string }) => {
      throw new Error(`refund service not reachable for ${order_id} (${reason})`);
    },
    { name: "refund_order", description: "Refund a delivered order.", schema: z.object({ order_id: z.string(), reason: z.string() }) },
  ),
];

/** A support bot on LangChain v1: `createAgent` with ChatOpenAI. Nothing in it knows about tests. */
export function supportAgent() {
  const model = new ChatOpenAI({ model: "gpt-4o-mini", maxRetries: 0 });
  return createAgent({ model, tools: supportTools, systemPrompt: "You are a support bot. Refund only delivered orders." });
}

/** One turn: the conversation so far plus the user's message in, the final answer and the new messages out. */
export async function supportTurn(agent: ReturnType<typeof supportAgent>, history: readonly BaseMessage[], message: string) {
  const state = await agent.invoke({ messages: [...history, { role: "user", content: message }] });
  return { text: String(state.messages.at(-1)?.content ?? ""), messages: state.messages.slice(history.length) };
}
