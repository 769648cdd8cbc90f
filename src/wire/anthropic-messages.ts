import { chunkText } from "../model/chunk-text.js";
import { parseMaybeJson, requestView, toolView } from "../model/request-view.js";
import type { MockModelMessage, MockModelTool, MockModelToolResult, ResolvedReply } from "../model/types.js";
import { appendToolResult, asRecord, chunkJson, contentText, sse, WireRequestError, type WireCodec } from "./codec.js";

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
  idPrefix: "toolu_",

  decode(raw) {
    const body = asRecord(raw, "The request body");
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
      calls.forEach((call) => names.set(call.id, call.name));
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
    let index = 0;
    if (reply.text !== "") {
      events.push(sse({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start"));
      ping();
      for (const text of chunkText(reply.text))
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

  errorBody(kind, message) {
    const type = kind === "invalid_request" ? "invalid_request_error" : kind === "not_found" ? "not_found_error" : "api_error";
    return { type: "error", error: { type, message } };
  },
};

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
    ...(reply.text !== "" ? [{ type: "text", text: reply.text }] : []),
    ...reply.toolCalls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.input })),
  ];
}

function stopReason(reply: ResolvedReply): "tool_use" | "end_turn" {
  return reply.toolCalls.length > 0 ? "tool_use" : "end_turn";
}
