import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";

/**
 * A support bot on the AI SDK whose tools live on an MCP server: it lists them from its MCP client and calls
 * each through `client.callTool`, reading a result's structured content and turning an error result into a
 * tool failure. Nothing in it knows about tests.
 */
export async function supportBot(model: LanguageModel, client: Client) {
  const listed = (await client.listTools()).tools;
  const tools: ToolSet = Object.fromEntries(
    listed.map((t) => [
      t.name,
      tool({
        description: t.description ?? "",
        inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: async (args) => {
          const result = await client.callTool({ name: t.name, arguments: args as Record<string, unknown> });
          const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
          if (result.isError) throw new Error(text);
          return result.structuredContent ?? text;
        },
      }),
    ]),
  );
  return async (message: string, history: readonly ModelMessage[]) => {
    const result = await generateText({
      model,
      tools,
      system: "You are a support bot. Refund only delivered orders.",
      messages: [...history, { role: "user", content: message }],
      stopWhen: stepCountIs(5),
    });
    return { text: result.text, messages: [{ role: "user" as const, content: message }, ...result.response.messages] };
  };
}
