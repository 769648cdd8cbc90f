import type OpenAI from "openai";

/** The support bot's tools: real implementations would call the order and refund services. */
export const supportTools = {
  lookup_order: async (input: { order_id: string }): Promise<unknown> => {
    throw new Error(`order service not reachable for ${input.order_id}`);
  },
  refund_order: async (input: { order_id: string; reason: string }): Promise<unknown> => {
    throw new Error(`refund service not reachable for ${input.order_id} (${input.reason})`);
  },
};

const toolDefinitions: OpenAI.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "lookup_order",
      description: "Look up an order by id.",
      parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
    },
  },
  {
    type: "function",
    function: {
      name: "refund_order",
      description: "Refund a delivered order.",
      parameters: {
        type: "object",
        properties: { order_id: { type: "string" }, reason: { type: "string" } },
        required: ["order_id", "reason"],
      },
    },
  },
];

/**
 * A support bot written directly on the OpenAI SDK: it calls Chat Completions, runs the tools the model
 * asks for, and loops until the model answers. Nothing in it knows about tests.
 */
export async function supportBot(client: OpenAI, history: OpenAI.ChatCompletionMessageParam[], message: string) {
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: "system", content: "You are a support bot. Refund only delivered orders." },
    ...history,
    { role: "user", content: message },
  ];
  for (let step = 0; step < 5; step++) {
    const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools: toolDefinitions });
    const reply = completion.choices[0]!.message;
    messages.push(reply);
    if (!reply.tool_calls?.length) return { text: reply.content ?? "", messages: messages.slice(1 + history.length) };
    for (const call of reply.tool_calls) {
      if (call.type !== "function") continue;
      const name = call.function.name as keyof typeof supportTools;
      let content: string;
      try {
        content = JSON.stringify(await supportTools[name](JSON.parse(call.function.arguments)));
      } catch (error) {
        content = `Error: ${(error as Error).message}`;
      }
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
  }
  throw new Error("the support bot did not finish in 5 steps");
}
