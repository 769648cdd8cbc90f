import { toolView } from "../model/request-view.js";
import type { MockModelMessage, MockModelTool, MockModelToolResult } from "../model/types.js";
import { appendToolResult, asRecord, WireRequestError } from "./codec.js";
import type { Json } from "./sse-events.js";

/** A Gemini `contents` conversation as the mock model's messages, tools and tool results. */
export interface GeminiConversation {
  readonly messages: MockModelMessage[];
  readonly tools: MockModelTool[];
  readonly toolResults: MockModelToolResult[];
}

/** The model and streaming a Gemini URL names: `.../models/{model}:generateContent` or `:streamGenerateContent`. */
export function geminiTarget(url: URL | undefined): {
  readonly model: string | undefined;
  readonly stream: boolean;
  readonly sse: boolean;
} {
  const match = url === undefined ? null : /\/(?:models|tunedModels)\/([^/:]+):(stream)?[gG]enerateContent$/.exec(url.pathname);
  return {
    model: match?.[1] === undefined ? undefined : decodeURIComponent(match[1]),
    stream: match?.[2] !== undefined,
    sse: url?.searchParams.get("alt") === "sse",
  };
}

const text = (parts: readonly Json[]) =>
  parts
    .filter((part) => typeof part.text === "string" && part.thought !== true)
    .map((part) => part.text as string)
    .join("");

/**
 * What a tool's result is in a `functionResponse.response`: the AI SDK writes `{ name, content }`, code on
 * `@google/genai` often `{ output }` or `{ result }`; anything else is the result as it is.
 */
export function geminiResultOutput(response: unknown): { readonly output: unknown; readonly isError: boolean } {
  if (response === null || typeof response !== "object" || Array.isArray(response)) return { output: response, isError: false };
  const record = response as Json;
  const keys = Object.keys(record).filter((key) => key !== "name");
  if (keys.length === 1 && (keys[0] === "content" || keys[0] === "output" || keys[0] === "result"))
    return { output: record[keys[0]], isError: false };
  if (keys.length === 1 && keys[0] === "error") return { output: record.error, isError: true };
  return { output: response, isError: false };
}

/**
 * Reads `contents`, `systemInstruction` and `tools`. A `functionCall` may come without an id (Gemini sends
 * none): its result is paired by name, in order, and both get the id `{name}#{n}`.
 */
export function decodeGeminiConversation(raw: unknown): GeminiConversation {
  const body = asRecord(raw, "The request body");
  if (!Array.isArray(body.contents)) throw new WireRequestError("* GenerateContentRequest.contents: contents is not specified");
  const messages: MockModelMessage[] = [];
  const toolResults: MockModelToolResult[] = [];
  const system = body.systemInstruction;
  if (system !== undefined) {
    const parts = typeof system === "string" ? [{ text: system }] : ((asRecord(system, "systemInstruction").parts ?? []) as Json[]);
    messages.push({ role: "system", text: text(parts) });
  }
  // Calls without ids, by name, waiting for their results.
  const waiting = new Map<string, string[]>();
  let serial = 0;
  for (const [i, item] of body.contents.entries()) {
    const content = asRecord(item, `contents[${i}]`);
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      throw new WireRequestError(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
    const parts = content.parts.map((part, j) => asRecord(part, `contents[${i}].parts[${j}]`));
    const calls = parts
      .filter((part) => part.functionCall !== undefined)
      .map((part) => {
        const call = asRecord(part.functionCall, `contents[${i}].functionCall`);
        const name = String(call.name ?? "");
        const id = typeof call.id === "string" && call.id !== "" ? call.id : `${name}#${++serial}`;
        waiting.set(name, [...(waiting.get(name) ?? []), id]);
        return { id, name, input: call.args ?? {} };
      });
    const responses = parts.filter((part) => part.functionResponse !== undefined);
    if (content.role === "model") {
      messages.push({ role: "assistant", text: text(parts), ...(calls.length > 0 ? { toolCalls: calls } : {}) });
      continue;
    }
    for (const part of responses) {
      const response = asRecord(part.functionResponse, `contents[${i}].functionResponse`);
      const name = String(response.name ?? "");
      const queue = waiting.get(name) ?? [];
      const id = typeof response.id === "string" && response.id !== "" ? response.id : (queue[0] ?? name);
      waiting.set(
        name,
        queue.filter((queued) => queued !== id),
      );
      const { output, isError } = geminiResultOutput(response.response);
      const result = { id, name, output, isError };
      toolResults.push(result);
      appendToolResult(messages, result, typeof output === "string" ? output : JSON.stringify(output ?? null));
    }
    const said = text(parts);
    if (responses.length === 0 || said !== "") messages.push({ role: "user", text: said });
  }
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]).flatMap(offeredTools) : [];
  return { messages, tools, toolResults };
}

function offeredTools(tool: Json): MockModelTool[] {
  if (Array.isArray(tool.functionDeclarations))
    return (tool.functionDeclarations as Json[]).map((fn) =>
      toolView(String(fn.name ?? ""), fn.description, fn.parametersJsonSchema ?? fn.parameters),
    );
  // A built-in tool (googleSearch, codeExecution, urlContext, ...) under its own key.
  return Object.keys(tool).map((key) => toolView(key, undefined, undefined, key));
}
