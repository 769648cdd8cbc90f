import { chunkText } from "../model/chunk-text.js";
import { anthropicEditor } from "./anthropic-edits.js";
import { ANTHROPIC_ERROR_TYPES } from "./anthropic-errors.js";
import { WIRE_DELTA } from "./codec.js";
import { parseMaybeJson, requestView, toolView } from "../model/request-view.js";
import type { MockModelMessage, MockModelTool, MockModelToolResult, ResolvedReply } from "../model/types.js";
import { DEFAULT_BASE_URLS } from "./base-urls.js";
import {
  appendToolResult,
  asRecord,
  checkListItems,
  chunkJson,
  contentText,
  serial,
  sse,
  WireRequestError,
  type WireCodec,
} from "./codec.js";
import { emptyMemory } from "./memory.js";
import { decodedReply, type Json, parseEvents, withReasoning } from "./sse-events.js";
import { StreamedThinking, thinkingBlocks, thinkingEvents, thinkingOf } from "./anthropic-thinking.js";
import { estimateTokens, promptCharacters } from "../model/estimate-usage.js";

interface Block {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

interface AnthropicTool {
  type?: string;
  name?: string;
  description?: string;
  input_schema?: unknown;
}

/** The Anthropic Messages API (`POST /v1/messages`), JSON and streaming. */
export const anthropicMessages: WireCodec = {
  api: "anthropic.messages",
  path: "/messages",
  defaultBaseUrl: DEFAULT_BASE_URLS.anthropic,
  editor: anthropicEditor,
  idPrefix: "toolu_",
  headers: { "request-id": "req_tooltrace" },

  /** Anthropic's base has no `/v1`: the SDK adds `/v1/messages`. */
  endpoints(base) {
    const trimmed = base.replace(/\/+$/, "");
    return [trimmed.endsWith("/v1") ? `${trimmed}/messages` : `${trimmed}/v1/messages`];
  },

  responseId: (n) => `msg_${serial(n)}`,

  owns: (request, path) => /\/messages(\/|$)/.test(path) || request.headers.has("anthropic-version") || request.headers.has("x-api-key"),

  decode(raw) {
    const body = asRecord(raw, "The request body");
    checkListItems(body, "dots");
    if (typeof body.model !== "string") throw new WireRequestError("model: Field required");
    if (!Array.isArray(body.messages)) throw new WireRequestError("messages: Field required");
    const messages: MockModelMessage[] = [];
    const system = contentText(body.system, ["text"]);
    if (system !== "") messages.push({ role: "system", text: system });
    const names = new Map<string, string>();
    const toolResults: MockModelToolResult[] = [];
    const roles = body.messages.map((item, i) => asRecord(item, `messages.${i}`).role);
    for (const [i, item] of body.messages.entries()) {
      const message = asRecord(item, `messages.${i}`);
      if (message.role === "system") {
        checkSystemPlacement(roles, i);
        messages.push({ role: "system", text: contentText(message.content, ["text"]) });
        continue;
      }
      if (message.role !== "user" && message.role !== "assistant")
        throw new WireRequestError(`messages.${i}.role: Input should be 'user', 'assistant' or 'system'`);
      const blocks: Block[] =
        typeof message.content === "string"
          ? [{ type: "text", text: message.content }]
          : Array.isArray(message.content)
            ? (message.content as Block[])
            : [];
      const calls = blocks
        .filter((block) => block.type === "tool_use" || block.type === "server_tool_use")
        .map((block) => ({ id: block.id ?? "", name: block.name ?? "", input: block.input }));
      for (const call of calls) names.set(call.id, call.name);
      // Anthropic carries tool results inside user messages; the view gives them their own `tool` message.
      const resultBlocks = blocks.filter((block) => block.type === "tool_result");
      for (const block of resultBlocks) {
        const text = contentText(block.content, ["text"]);
        const result = {
          id: block.tool_use_id ?? "",
          name: names.get(block.tool_use_id ?? "") ?? "",
          output: parseMaybeJson(text),
          isError: block.is_error === true,
        };
        toolResults.push(result);
        appendToolResult(messages, result, text);
      }
      const text = contentText(blocks, ["text"]);
      if (text !== "" || calls.length > 0 || resultBlocks.length === 0) {
        messages.push({ role: message.role, text, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
      }
    }
    const tools: MockModelTool[] = Array.isArray(body.tools)
      ? (body.tools as AnthropicTool[]).filter((tool) => typeof tool.name === "string").map(offeredTool)
      : [];
    return { model: body.model, stream: body.stream === true, includeUsage: true, view: requestView(messages, tools, toolResults), body };
  },

  encodeJson(reply, request, responseId) {
    return {
      id: responseId,
      type: "message",
      role: "assistant",
      model: request.model,
      content: contentBlocks(reply),
      stop_reason: stopReason(reply),
      stop_sequence: null,
      usage: usage(reply, reply.usage.outputTokens),
    };
  },

  encodeStream(reply, request, responseId) {
    const events = [
      sse(
        {
          type: "message_start",
          message: {
            id: responseId,
            type: "message",
            role: "assistant",
            model: request.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: usage(reply, 1),
          },
        },
        "message_start",
      ),
    ];
    // Anthropic sends its first `ping` right after the first content block starts (after message_start when there is none).
    const ping = () => {
      if (!events.some((event) => event.startsWith("event: ping"))) events.push(sse({ type: "ping" }, "ping"));
    };
    const thinking = thinkingEvents(reply.reasoning ?? [], 0);
    events.push(...thinking.events);
    if (thinking.events.length > 0) ping();
    let index = thinking.next;
    if (reply.text !== "") {
      events.push(sse({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start"));
      ping();
      for (const text of chunkText(reply.text, WIRE_DELTA))
        events.push(sse({ type: "content_block_delta", index, delta: { type: "text_delta", text } }, "content_block_delta"));
      events.push(sse({ type: "content_block_stop", index }, "content_block_stop"));
      index += 1;
    }
    for (const call of reply.toolCalls) {
      events.push(
        sse(
          { type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } },
          "content_block_start",
        ),
      );
      ping();
      for (const partial_json of chunkJson(JSON.stringify(call.input))) {
        events.push(sse({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }, "content_block_delta"));
      }
      events.push(sse({ type: "content_block_stop", index }, "content_block_stop"));
      index += 1;
    }
    ping();
    events.push(
      sse(
        {
          type: "message_delta",
          delta: { stop_reason: stopReason(reply), stop_sequence: null },
          usage: usage(reply, reply.usage.outputTokens),
        },
        "message_delta",
      ),
    );
    events.push(sse({ type: "message_stop" }, "message_stop"));
    return events;
  },

  decodeReply(body, streamed) {
    if (streamed) return decodeStream(parseEvents(body));
    const json = JSON.parse(body) as Json;
    const content = (json.content ?? []) as Json[];
    const text = content
      .filter((block) => block.type === "text")
      .map((block) => String(block.text ?? ""))
      .join("");
    const toolCalls = content
      .filter((block) => block.type === "tool_use")
      .map((block) => ({ id: String(block.id), name: String(block.name), input: block.input }));
    const usage = (json.usage ?? {}) as Json;
    return withReasoning(
      decodedReply(text, toolCalls, Number(usage.input_tokens ?? 0), Number(usage.output_tokens ?? 0)),
      thinkingBlocks(content),
    );
  },

  errorBody(kind, message) {
    return { type: "error", error: { type: ANTHROPIC_ERROR_TYPES[kind], message } };
  },

  overloadedStatus: 529,
  pathNotFound: () => "Not Found. tooltrace's wire mock answers POST /v1/messages, GET /v1/models and /v1/messages/count_tokens.",
  modelNotFound: (model) => `model: ${model}`,
  modelEntry: (id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }),
  modelList: (ids) => ({
    data: ids.map(anthropicMessages.modelEntry),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids.at(-1) ?? null,
  }),

  countTokens: {
    path: "/messages/count_tokens",
    answer: (body) => ({ input_tokens: estimateTokens(promptCharacters(anthropicMessages.decode(body, emptyMemory()).view)) }),
  },
};

/** A Messages stream's events as one reply: text deltas, tool inputs by block index, usage from start and delta. */
function decodeStream(events: readonly Json[]): ResolvedReply {
  let text = "";
  let inputTokens = 0;
  let outputTokens = 0;
  const calls = new Map<number, { id: string; name: string; json: string }>();
  const thinking = new StreamedThinking();
  for (const event of events) {
    if (event.type === "message_start")
      inputTokens = Number(((event.message as Json | undefined)?.usage as Json | undefined)?.input_tokens ?? 0);
    if (event.type === "content_block_start") {
      const block = event.content_block as Json;
      thinking.start(Number(event.index), block);
      if (block.type === "tool_use") calls.set(Number(event.index), { id: String(block.id), name: String(block.name), json: "" });
      else if (block.type === "text") text += String(block.text ?? "");
    }
    if (event.type === "content_block_delta") {
      const delta = event.delta as Json;
      thinking.delta(Number(event.index), delta);
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
  return withReasoning(decodedReply(text, toolCalls, inputTokens, outputTokens), thinking.parts());
}

/**
 * A `system` message inside `messages` (mid-conversation instructions, which the API accepts and Claude Code
 * sends): never first, right after a user message, and last or followed by an assistant turn.
 */
function checkSystemPlacement(roles: readonly unknown[], i: number): void {
  const placed = i > 0 && roles[i - 1] === "user" && (i === roles.length - 1 || roles[i + 1] === "assistant");
  if (!placed) {
    throw new WireRequestError(
      `messages.${i}: a system message inside messages must come right after a user message, and be last or followed by an assistant message`,
    );
  }
}

/** An offered tool with its type: `function` for a tool with an input schema, the server tool's type otherwise. */
function offeredTool(tool: AnthropicTool): MockModelTool {
  const type =
    tool.input_schema !== undefined && (tool.type === undefined || tool.type === "custom") ? "function" : (tool.type ?? "function");
  return toolView(tool.name as string, tool.description, tool.input_schema, type);
}

function usage(reply: ResolvedReply, outputTokens: number) {
  return { input_tokens: reply.usage.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens };
}

function contentBlocks(reply: ResolvedReply) {
  return [
    ...thinkingOf(reply.reasoning),
    ...(reply.text !== "" ? [{ type: "text", text: reply.text }] : []),
    ...reply.toolCalls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.input })),
  ];
}

function stopReason(reply: ResolvedReply): "tool_use" | "end_turn" {
  return reply.toolCalls.length > 0 ? "tool_use" : "end_turn";
}
