import type { MockModelMessage, MockModelRequest, MockModelTool, MockModelToolResult } from "./types.js";

/** One offered tool in the view; the description and schema are kept when the definition has them. */
export function toolView(name: string, description: unknown, inputSchema: unknown, type = "function"): MockModelTool {
  return { name, type, ...(typeof description === "string" ? { description } : {}), ...(inputSchema !== undefined ? { inputSchema } : {}) };
}

/** Builds the request view from the messages, tools and tool results a codec decoded. */
export function requestView(
  messages: readonly MockModelMessage[],
  tools: readonly MockModelTool[],
  toolResults: readonly MockModelToolResult[],
): MockModelRequest {
  const userMessages = messages.filter((message) => message.role === "user").map((message) => message.text);
  return {
    messages,
    userMessages,
    lastUserMessage: userMessages.at(-1) ?? null,
    userMessageCount: userMessages.length,
    tools,
    toolResults,
  };
}

/** Parses JSON text when it is JSON; otherwise keeps the text. */
export function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
