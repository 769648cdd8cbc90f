import { chunkText } from "../model/chunk-text.js";
import { chatEditor } from "./openai-chat-edits.js";
import { WIRE_DELTA } from "./codec.js";
import { parseMaybeJson, requestView, toolView } from "../model/request-view.js";
import type { MockModelMessage, MockModelTool, MockModelToolResult, ResolvedReply } from "../model/types.js";
import {
  appendToolResult,
  asRecord,
  checkListItems,
  chunkJson,
  contentText,
  serial,
  sse,
  WireRequestError,
  type DecodedRequest,
  type WireCodec,
} from "./codec.js";
import { DEFAULT_BASE_URLS } from "./base-urls.js";
import { openaiShared } from "./openai-shared.js";
import { decodedReply, type Json, parseEvents, type ReplyToolCall } from "./sse-events.js";

interface ChatToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
  custom?: { name?: string; input?: string };
}

interface ChatTool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
  custom?: { name?: string; description?: string; format?: unknown };
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/** OpenAI Chat Completions (`POST /v1/chat/completions`), JSON and streaming. */
export const openaiChat: WireCodec = {
  api: "openai.chat",
  path: "/chat/completions",
  defaultBaseUrl: DEFAULT_BASE_URLS.openai,
  editor: chatEditor,
  idPrefix: "call_",
  headers: openaiShared.headers,
  endpoints: (base) => openaiShared.endpoint(base, "/chat/completions"),
  responseId: (n) => `chatcmpl-${serial(n)}`,
  modelFromUrl: openaiShared.modelFromUrl,

  decode(raw) {
    const body = asRecord(raw, "The request body");
    checkListItems(body, "brackets");
    if (typeof body.model !== "string") throw new WireRequestError("you must provide a model parameter");
    if (!Array.isArray(body.messages)) throw new WireRequestError("Missing required parameter: 'messages'.");
    const messages: MockModelMessage[] = [];
    const toolResults: MockModelToolResult[] = [];
    const names = new Map<string, string>();
    for (const [i, item] of body.messages.entries()) {
      const message = asRecord(item, `messages[${i}]`);
      const role = message.role;
      if (typeof role !== "string" || !ROLES.has(role)) throw new WireRequestError(`Invalid value for 'messages[${i}].role'.`);
      const text = contentText(message.content, ["text"]);
      if (role === "tool") {
        const id = typeof message.tool_call_id === "string" ? message.tool_call_id : "";
        const result = { id, name: names.get(id) ?? "", output: parseMaybeJson(text), isError: false };
        toolResults.push(result);
        appendToolResult(messages, result, text);
        continue;
      }
      const calls = Array.isArray(message.tool_calls)
        ? (message.tool_calls as ChatToolCall[]).map((call) =>
            call.type === "custom"
              ? { id: call.id ?? "", name: call.custom?.name ?? "", input: call.custom?.input ?? "" }
              : { id: call.id ?? "", name: call.function?.name ?? "", input: parseMaybeJson(call.function?.arguments ?? "{}") },
          )
        : [];
      for (const call of calls) names.set(call.id, call.name);
      messages.push({
        role: role === "developer" ? "system" : (role as MockModelMessage["role"]),
        text,
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
    }
    const tools: MockModelTool[] = Array.isArray(body.tools) ? (body.tools as ChatTool[]).flatMap(offeredTool) : [];
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    return {
      model: body.model,
      stream: body.stream === true,
      includeUsage: streamOptions?.include_usage === true,
      view: requestView(messages, tools, toolResults),
      body,
    };
  },

  encodeJson(reply, request, responseId) {
    return {
      id: responseId,
      object: "chat.completion",
      created: CREATED,
      model: request.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: reply.text === "" && reply.toolCalls.length > 0 ? null : reply.text,
            refusal: null,
            ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls.map((call) => toolCall(call, request)) } : {}),
          },
          logprobs: null,
          finish_reason: finishReason(reply),
        },
      ],
      usage: usage(reply),
      system_fingerprint: null,
    };
  },

  encodeStream(reply, request, responseId) {
    const chunk = (delta: object, finish: string | null = null) =>
      sse({
        id: responseId,
        object: "chat.completion.chunk",
        created: CREATED,
        model: request.model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      });
    const events = [chunk({ role: "assistant", content: "", refusal: null })];
    for (const content of reply.text === "" ? [] : chunkText(reply.text, WIRE_DELTA)) events.push(chunk({ content }));
    reply.toolCalls.forEach((call, index) => {
      if (isCustom(call, request)) {
        events.push(chunk({ tool_calls: [{ index, ...toolCall(call, request) }] }));
        return;
      }
      events.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
      for (const args of chunkJson(JSON.stringify(call.input)))
        events.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
    });
    events.push(chunk({}, finishReason(reply)));
    if (request.includeUsage) {
      events.push(
        sse({
          id: responseId,
          object: "chat.completion.chunk",
          created: CREATED,
          model: request.model,
          system_fingerprint: null,
          choices: [],
          usage: usage(reply),
        }),
      );
    }
    events.push(sse("[DONE]"));
    return events;
  },

  decodeReply(body, streamed) {
    if (streamed) return decodeStream(parseEvents(body));
    const json = JSON.parse(body) as Json;
    const message = (((json.choices ?? []) as Json[])[0]?.message ?? {}) as Json;
    const toolCalls = ((message.tool_calls ?? []) as Json[]).map(decodeToolCall);
    const usage = (json.usage ?? {}) as Json;
    return decodedReply(
      typeof message.content === "string" ? message.content : "",
      toolCalls,
      Number(usage.prompt_tokens ?? 0),
      Number(usage.completion_tokens ?? 0),
    );
  },

  errorBody: openaiShared.errorBody,
  overloadedStatus: openaiShared.overloadedStatus,
  pathNotFound: openaiShared.pathNotFound,
  modelNotFound: openaiShared.modelNotFound,
  modelEntry: openaiShared.modelEntry,
  modelList: openaiShared.modelList,
};

function decodeToolCall(call: Json): ReplyToolCall {
  if (call.type === "custom") {
    const custom = (call.custom ?? {}) as Json;
    return { id: String(call.id), name: String(custom.name), input: String(custom.input ?? "") };
  }
  const fn = (call.function ?? {}) as Json;
  return { id: String(call.id), name: String(fn.name), input: parseMaybeJson(String(fn.arguments ?? "{}")) };
}

/** A Chat Completions stream's chunks as one reply: content deltas, tool calls by index, the usage chunk. */
function decodeStream(events: readonly Json[]): ResolvedReply {
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
  return decodedReply(text, toolCalls, inputTokens, outputTokens);
}

/** A fixed creation time, so responses are the same on every run. */
const CREATED = 1_700_000_000;

function finishReason(reply: ResolvedReply): "tool_calls" | "stop" {
  return reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

function usage(reply: ResolvedReply) {
  return {
    prompt_tokens: reply.usage.inputTokens,
    completion_tokens: reply.usage.outputTokens,
    total_tokens: reply.usage.totalTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** An offered tool with its type: `function` with its schema, `custom` with its name (free-text input). */
function offeredTool(tool: ChatTool): MockModelTool[] {
  if (tool.type === "function" && typeof tool.function?.name === "string")
    return [toolView(tool.function.name, tool.function.description, tool.function.parameters)];
  if (tool.type === "custom" && typeof tool.custom?.name === "string")
    return [toolView(tool.custom.name, tool.custom.description, undefined, "custom")];
  return [];
}

function isCustom(call: ResolvedReply["toolCalls"][number], request: DecodedRequest): boolean {
  return request.view.tools.some((tool) => tool.name === call.name && tool.type === "custom");
}

/** A reply's tool call as Chat Completions writes it: a function with JSON arguments, or a custom tool with raw input. */
function toolCall(call: ResolvedReply["toolCalls"][number], request: DecodedRequest) {
  if (isCustom(call, request))
    return {
      id: call.id,
      type: "custom",
      custom: { name: call.name, input: typeof call.input === "string" ? call.input : JSON.stringify(call.input) },
    };
  return { id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.input) } };
}
