import { parseMaybeJson } from "../model/request-view.js";
import type { ReasoningPart, ResolvedReply } from "../model/types.js";
import { decodedReply, type Json, parseEvents, withReasoning } from "./sse-events.js";

/** A real Responses reply (JSON, or the whole text of its stream) as the mock model's reply, reasoning items kept. */
export function decodeResponsesReply(body: string, streamed: boolean): ResolvedReply {
  const response = responsesObject(body, streamed);
  const output = (response.output ?? []) as Json[];
  const text = output
    .filter((item) => item.type === "message")
    .flatMap((item) => (item.content ?? []) as Json[])
    .filter((part) => part.type === "output_text")
    .map((part) => String(part.text ?? ""))
    .join("");
  const toolCalls = output
    .filter((item) => item.type === "function_call" || item.type === "custom_tool_call")
    .map((item) => ({
      id: String(item.call_id),
      name: String(item.name),
      input: item.type === "custom_tool_call" ? String(item.input ?? "") : parseMaybeJson(String(item.arguments ?? "{}")),
    }));
  const usage = (response.usage ?? {}) as Json;
  const reasoning = output.filter((item) => item.type === "reasoning") as ReasoningPart[];
  return withReasoning(decodedReply(text, toolCalls, Number(usage.input_tokens ?? 0), Number(usage.output_tokens ?? 0)), reasoning);
}

/** The Responses API's response object, from its JSON or its stream's `response.completed` event. */
export function responsesObject(body: string, streamed: boolean): Json {
  if (!streamed) return JSON.parse(body) as Json;
  const completed = parseEvents(body).find((event) => event.type === "response.completed" || event.type === "response.incomplete");
  if (completed === undefined) throw new Error("the Responses stream ended without response.completed");
  return completed.response as Json;
}

/** An offered tool with its type; a namespace's tools are offered as `namespace.tool`. */
