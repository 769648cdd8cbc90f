import { messageView, parseMaybeJson, requestView, toolView } from "./request-view.js";
import type { MockModelMessage, MockModelRequest, MockModelTool, MockModelToolResult } from "./types.js";

/** The parts of an AI SDK (specification v2 or v3) prompt message this decoder reads. */
interface PromptPart {
  readonly type: string;
  readonly text?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly output?: { readonly type: string; readonly value?: unknown; readonly reason?: string };
}

type PromptMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user" | "assistant" | "tool"; readonly content: readonly PromptPart[] };

interface PromptTool {
  readonly type: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
}

/** Decodes an AI SDK language-model prompt and tool list into the mock model's request view. */
export function fromAiSdkPrompt(prompt: readonly PromptMessage[], tools: readonly PromptTool[] | undefined): MockModelRequest {
  const messages: MockModelMessage[] = [];
  const toolResults: MockModelToolResult[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      messages.push({ role: "system", text: message.content });
      continue;
    }
    const texts: string[] = [];
    const calls: { id: string; name: string; input: unknown }[] = [];
    const results: MockModelToolResult[] = [];
    for (const part of message.content) {
      if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
      if (part.type === "tool-call") {
        calls.push({
          id: part.toolCallId ?? "",
          name: part.toolName ?? "",
          input: typeof part.input === "string" ? parseMaybeJson(part.input) : part.input,
        });
      }
      if (part.type === "tool-result") {
        const decoded = decodeOutput(part.output);
        const result = { id: part.toolCallId ?? "", name: part.toolName ?? "", output: decoded.output, isError: decoded.isError };
        results.push(result);
        texts.push(typeof result.output === "string" ? result.output : JSON.stringify(result.output));
      }
    }
    for (const result of results) toolResults.push(result);
    messages.push(messageView(message.role, texts.length === 1 ? (texts[0] as string) : texts.join("\n"), calls, results));
  }
  // Function tools carry a schema; provider tools (`openai.web_search`, ...) are offered by name and type.
  const offered: MockModelTool[] = (tools ?? []).map((tool) =>
    toolView(tool.name, tool.description, tool.inputSchema, tool.type === "function" ? "function" : "provider"),
  );
  return requestView(messages, offered, toolResults);
}

function decodeOutput(output: PromptPart["output"]): { output: unknown; isError: boolean } {
  if (output === undefined) return { output: undefined, isError: false };
  switch (output.type) {
    case "json":
    case "content":
      return { output: output.value, isError: false };
    case "text":
      return { output: typeof output.value === "string" ? parseMaybeJson(output.value) : output.value, isError: false };
    case "error-json":
      return { output: output.value, isError: true };
    case "error-text":
      return { output: output.value, isError: true };
    case "execution-denied":
      return { output: output.reason ?? "denied", isError: true };
    default:
      return { output: output.value, isError: false };
  }
}
