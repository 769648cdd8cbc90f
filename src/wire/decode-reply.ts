import { parseMaybeJson } from "../model/request-view.js";
import type { ResolvedReply } from "../model/types.js";
import type { WireApi } from "./codec.js";

type Json = Record<string, unknown>;
type ToolCall = ResolvedReply["toolCalls"][number];

/**
 * Reads a real provider's reply (JSON, or the whole text of its server-sent events) as the mock model's
 * reply: the text, the tool calls and the usage. The trace, the chain and the cassette see real model
 * calls in the same shape as mocked ones.
 */
export function decodeReply(api: WireApi, body: string, streamed: boolean): ResolvedReply {
  if (!streamed) return decodeJson(api, JSON.parse(body) as Json);
  const events = parseEvents(body);
  if (api === "anthropic.messages") return anthropicStream(events);
  if (api === "openai.chat") return chatStream(events);
  return decodeJson(api, responsesObject(body, true));
}

/** The Responses API's response object, from its JSON or its stream's `response.completed` event. */
export function responsesObject(body: string, streamed: boolean): Json {
  if (!streamed) return JSON.parse(body) as Json;
  const completed = parseEvents(body).find((event) => event.type === "response.completed" || event.type === "response.incomplete");
  if (completed === undefined) throw new Error("the Responses stream ended without response.completed");
  return completed.response as Json;
}

function decodeJson(api: WireApi, body: Json): ResolvedReply {
  if (api === "anthropic.messages") {
    const content = (body.content ?? []) as Json[];
    const text = content
      .filter((block) => block.type === "text")
      .map((block) => String(block.text ?? ""))
      .join("");
    const toolCalls = content
      .filter((block) => block.type === "tool_use")
      .map((block) => ({ id: String(block.id), name: String(block.name), input: block.input }));
    const usage = (body.usage ?? {}) as Json;
    return reply(text, toolCalls, Number(usage.input_tokens ?? 0), Number(usage.output_tokens ?? 0));
  }
  if (api === "openai.chat") {
    const message = (((body.choices ?? []) as Json[])[0]?.message ?? {}) as Json;
    const toolCalls = ((message.tool_calls ?? []) as Json[]).map(chatToolCall);
    const usage = (body.usage ?? {}) as Json;
    return reply(
      typeof message.content === "string" ? message.content : "",
      toolCalls,
      Number(usage.prompt_tokens ?? 0),
      Number(usage.completion_tokens ?? 0),
    );
  }
  const output = (body.output ?? []) as Json[];
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
  const usage = (body.usage ?? {}) as Json;
  return reply(text, toolCalls, Number(usage.input_tokens ?? 0), Number(usage.output_tokens ?? 0));
}

function chatToolCall(call: Json): ToolCall {
  if (call.type === "custom") {
    const custom = (call.custom ?? {}) as Json;
    return { id: String(call.id), name: String(custom.name), input: String(custom.input ?? "") };
  }
  const fn = (call.function ?? {}) as Json;
  return { id: String(call.id), name: String(fn.name), input: parseMaybeJson(String(fn.arguments ?? "{}")) };
}

function anthropicStream(events: readonly Json[]): ResolvedReply {
  let text = "";
  let inputTokens = 0;
  let outputTokens = 0;
  const calls = new Map<number, { id: string; name: string; json: string }>();
  for (const event of events) {
    if (event.type === "message_start")
      inputTokens = Number(((event.message as Json | undefined)?.usage as Json | undefined)?.input_tokens ?? 0);
    if (event.type === "content_block_start") {
      const block = event.content_block as Json;
      if (block.type === "tool_use") calls.set(Number(event.index), { id: String(block.id), name: String(block.name), json: "" });
      else if (block.type === "text") text += String(block.text ?? "");
    }
    if (event.type === "content_block_delta") {
      const delta = event.delta as Json;
      if (delta.type === "text_delta") text += String(delta.text ?? "");
      if (delta.type === "input_json_delta") {
        const call = calls.get(Number(event.index));
        if (call) call.json += String(delta.partial_json ?? "");
      }
    }
    if (event.type === "message_delta") outputTokens = Number((event.usage as Json | undefined)?.output_tokens ?? outputTokens);
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({ id: call.id, name: call.name, input: call.json === "" ? {} : parseMaybeJson(call.json) }));
  return reply(text, toolCalls, inputTokens, outputTokens);
}

function chatStream(events: readonly Json[]): ResolvedReply {
  let text = "";
  let inputTokens = 0;
  let outputTokens = 0;
  const calls = new Map<number, { id: string; name: string; args: string; custom: boolean }>();
  for (const event of events) {
    const usage = event.usage as Json | undefined | null;
    if (usage) {
      inputTokens = Number(usage.prompt_tokens ?? 0);
      outputTokens = Number(usage.completion_tokens ?? 0);
    }
    const delta = (((event.choices ?? []) as Json[])[0]?.delta ?? {}) as Json;
    if (typeof delta.content === "string") text += delta.content;
    for (const part of (delta.tool_calls ?? []) as Json[]) {
      const index = Number(part.index ?? 0);
      const call = calls.get(index) ?? { id: "", name: "", args: "", custom: false };
      if (typeof part.id === "string") call.id = part.id;
      const fn = (part.function ?? part.custom) as Json | undefined;
      if (part.custom !== undefined) call.custom = true;
      if (typeof fn?.name === "string") call.name = fn.name;
      call.args += String(fn?.arguments ?? fn?.input ?? "");
      calls.set(index, call);
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({
      id: call.id,
      name: call.name,
      input: call.custom ? call.args : call.args === "" ? {} : parseMaybeJson(call.args),
    }));
  return reply(text, toolCalls, inputTokens, outputTokens);
}

/** The JSON `data:` of each server-sent event; `[DONE]` and comments are skipped. */
function parseEvents(body: string): Json[] {
  const events: Json[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data === "" || data === "[DONE]") continue;
    events.push(JSON.parse(data) as Json);
  }
  return events;
}

function reply(text: string, toolCalls: readonly ToolCall[], inputTokens: number, outputTokens: number): ResolvedReply {
  return { text, toolCalls, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
}
