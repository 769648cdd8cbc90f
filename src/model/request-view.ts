import type { MockModelMessage, MockModelRequest, MockModelTool, MockModelToolResult } from "./types.js";

/** One offered tool in the view; the description and schema are kept when the definition has them. */
export function toolView(name: string, description: unknown, inputSchema: unknown, type = "function"): MockModelTool {
  // Literals rather than spreads: a view is built for every tool of every model call.
  if (typeof description === "string")
    return inputSchema !== undefined ? { name, type, description, inputSchema } : { name, type, description };
  return inputSchema !== undefined ? { name, type, inputSchema } : { name, type };
}

/** One message of the view; the tool calls and results are there only when it has some. */
export function messageView(
  role: MockModelMessage["role"],
  text: string,
  toolCalls: MockModelMessage["toolCalls"] | undefined,
  toolResults: MockModelMessage["toolResults"] | undefined,
): MockModelMessage {
  if (toolCalls !== undefined && toolCalls.length > 0) {
    return toolResults !== undefined && toolResults.length > 0 ? { role, text, toolCalls, toolResults } : { role, text, toolCalls };
  }
  return toolResults !== undefined && toolResults.length > 0 ? { role, text, toolResults } : { role, text };
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
    newToolResults: resultsSinceTheModelSpoke(messages),
  };
}

/** The tool results carried by the messages after the last assistant message. */
export function resultsSinceTheModelSpoke(messages: readonly MockModelMessage[]): readonly MockModelToolResult[] {
  const results: MockModelToolResult[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as MockModelMessage;
    if (message.role === "assistant") break;
    if (message.toolResults !== undefined) results.unshift(...message.toolResults);
  }
  return results;
}

/** Parses JSON text when it is JSON; otherwise keeps the text. */
export function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
