import { chunkText } from "../model/chunk-text.js";
import { responsesEditor } from "./openai-responses-edits.js";
import { WIRE_DELTA } from "./codec.js";
import { parseMaybeJson, requestView, toolView } from "../model/request-view.js";
import type { MockModelMessage, MockModelTool, MockModelToolResult, ResolvedReply } from "../model/types.js";
import {
  appendToolResult,
  asRecord,
  checkListItems,
  chunkJson,
  contentText,
  sse,
  WireRequestError,
  serial,
  type DecodedRequest,
  type WireCodec,
} from "./codec.js";
import { DEFAULT_BASE_URLS } from "./base-urls.js";
import { openaiShared } from "./openai-shared.js";
import { decodeResponsesReply, responsesObject } from "./openai-responses-reply.js";

const TEXT_PARTS = ["input_text", "output_text", "text"];

interface ResponsesTool {
  type?: string;
  name?: string;
  description?: string;
  parameters?: unknown;
  server_label?: string;
  tools?: ResponsesTool[];
}

/** The OpenAI Responses API (`POST /v1/responses`), JSON and streaming, with stored items and responses. */
export const openaiResponses: WireCodec = {
  api: "openai.responses",
  path: "/responses",
  defaultBaseUrl: DEFAULT_BASE_URLS.openai,
  editor: responsesEditor,
  idPrefix: "call_",
  headers: openaiShared.headers,
  endpoints: (base) => openaiShared.endpoint(base, "/responses"),
  responseId: (n) => `resp_${serial(n)}`,
  modelFromUrl: openaiShared.modelFromUrl,

  decode(raw, memory) {
    const body = asRecord(raw, "The request body");
    checkListItems(body, "brackets");
    if (typeof body.model !== "string") throw new WireRequestError("Missing required parameter: 'model'.");
    if (body.input === undefined) throw new WireRequestError("Missing required parameter: 'input'.");
    const given: unknown[] =
      typeof body.input === "string" ? [{ role: "user", content: body.input }] : Array.isArray(body.input) ? body.input : [];
    const previous = body.previous_response_id;
    const earlier = typeof previous === "string" ? memory.responses.get(previous) : [];
    if (earlier === undefined)
      throw new WireRequestError(`Previous response with id '${String(previous)}' not found.`, "not_found", "previous_response_id");
    const items = [
      ...earlier,
      ...given.map((item, i) => {
        const record = asRecord(item, `input[${i}]`);
        if (record.type !== "item_reference") return record;
        const stored = memory.items.get(String(record.id));
        if (stored === undefined) throw new WireRequestError(`Item with id '${String(record.id)}' not found.`, "not_found", "input");
        return stored;
      }),
    ];
    const messages: MockModelMessage[] = [];
    const toolResults: MockModelToolResult[] = [];
    const names = new Map<string, string>();
    if (typeof body.instructions === "string" && body.instructions !== "") messages.push({ role: "system", text: body.instructions });
    for (const [i, raw] of items.entries()) {
      const item = asRecord(raw, `input[${i}]`);
      const previousMessage = messages.at(-1);
      if (item.type === "function_call" || item.type === "custom_tool_call") {
        const input = item.type === "custom_tool_call" ? String(item.input ?? "") : parseMaybeJson(String(item.arguments ?? "{}"));
        const call = { id: String(item.call_id ?? ""), name: String(item.name ?? ""), input };
        names.set(call.id, call.name);
        // Consecutive calls (and an assistant message just before them) form one assistant turn.
        if (previousMessage?.role === "assistant")
          messages[messages.length - 1] = { ...previousMessage, toolCalls: [...(previousMessage.toolCalls ?? []), call] };
        else messages.push({ role: "assistant", text: "", toolCalls: [call] });
      } else if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
        const text = contentText(item.output, TEXT_PARTS);
        const result = {
          id: String(item.call_id ?? ""),
          name: names.get(String(item.call_id ?? "")) ?? "",
          output: parseMaybeJson(text),
          isError: false,
        };
        toolResults.push(result);
        appendToolResult(messages, result, text);
      } else if (item.type === undefined || item.type === "message") {
        const role = item.role === "developer" ? "system" : item.role;
        if (role !== "user" && role !== "assistant" && role !== "system")
          throw new WireRequestError(`Invalid value for 'input[${i}].role'.`, "invalid_request", `input[${i}].role`);
        messages.push({ role, text: contentText(item.content, TEXT_PARTS) });
      }
      // Reasoning items and server tools' own call items carry nothing the view shows.
    }
    const tools: MockModelTool[] = Array.isArray(body.tools) ? (body.tools as ResponsesTool[]).flatMap((tool) => offeredTools(tool)) : [];
    return {
      model: body.model,
      stream: body.stream === true,
      includeUsage: true,
      view: requestView(messages, tools, toolResults),
      body,
      items,
    };
  },

  encodeJson(reply, request, responseId) {
    return responseObject(reply, request, responseId, "completed");
  },

  encodeStream(reply, request, responseId) {
    let sequence = 0;
    const event = (type: string, fields: object) => sse({ type, sequence_number: sequence++, ...fields }, type);
    const events = [
      event("response.created", { response: responseObject(reply, request, responseId, "in_progress") }),
      event("response.in_progress", { response: responseObject(reply, request, responseId, "in_progress") }),
    ];
    outputItems(reply, request, responseId).forEach((item, output_index) => {
      if (item.type === "reasoning") {
        events.push(event("response.output_item.added", { output_index, item }));
      } else if (item.type === "message") {
        const text = reply.text;
        events.push(event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } }));
        const part = { type: "output_text", text: "", annotations: [] };
        events.push(event("response.content_part.added", { item_id: item.id, output_index, content_index: 0, part }));
        for (const delta of chunkText(text, WIRE_DELTA))
          events.push(event("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] }));
        events.push(event("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text, logprobs: [] }));
        events.push(event("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part: { ...part, text } }));
      } else if (item.type === "custom_tool_call") {
        events.push(event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", input: "" } }));
        for (const delta of chunkJson(item.input))
          events.push(event("response.custom_tool_call_input.delta", { item_id: item.id, output_index, delta }));
        events.push(event("response.custom_tool_call_input.done", { item_id: item.id, output_index, input: item.input }));
      } else {
        events.push(event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } }));
        for (const delta of chunkJson(item.arguments))
          events.push(event("response.function_call_arguments.delta", { item_id: item.id, output_index, delta }));
        events.push(
          event("response.function_call_arguments.done", { item_id: item.id, output_index, name: item.name, arguments: item.arguments }),
        );
      }
      events.push(event("response.output_item.done", { output_index, item }));
    });
    events.push(event("response.completed", { response: responseObject(reply, request, responseId, "completed") }));
    return events;
  },

  remember(reply, request, responseId, memory) {
    const output = outputItems(reply, request, responseId);
    memory.issued.add(responseId);
    for (const item of output) {
      memory.items.set(item.id, item);
      memory.issued.add(item.id);
    }
    if (request.body.store !== false) memory.responses.set(responseId, [...(request.items ?? []), ...output]);
  },

  rememberUpstream(body, streamed, request, memory) {
    const response = responsesObject(body, streamed);
    const output = Array.isArray(response.output) ? (response.output as Record<string, unknown>[]) : [];
    for (const item of output) if (typeof item.id === "string") memory.items.set(item.id, item);
    if (typeof response.id === "string" && request.body.store !== false)
      memory.responses.set(response.id, [...(request.items ?? []), ...output]);
  },

  decodeReply: decodeResponsesReply,

  errorBody: openaiShared.errorBody,
  overloadedStatus: openaiShared.overloadedStatus,
  pathNotFound: openaiShared.pathNotFound,
  modelNotFound: openaiShared.modelNotFound,
  modelEntry: openaiShared.modelEntry,
  modelList: openaiShared.modelList,
};

function offeredTools(tool: ResponsesTool, namespace?: string): MockModelTool[] {
  const qualify = (name: string) => (namespace ? `${namespace}.${name}` : name);
  if (Array.isArray(tool.tools) && typeof tool.name === "string")
    return tool.tools.flatMap((inner) => offeredTools(inner, qualify(tool.name as string)));
  if (tool.type === "function" && typeof tool.name === "string") return [toolView(qualify(tool.name), tool.description, tool.parameters)];
  const name = tool.name ?? tool.server_label ?? tool.type;
  return typeof name === "string" ? [toolView(qualify(name), tool.description, tool.parameters, tool.type ?? "function")] : [];
}

type OutputItem =
  | {
      id: string;
      type: "message";
      status: "completed";
      role: "assistant";
      content: { type: "output_text"; text: string; annotations: []; logprobs: [] }[];
    }
  | { id: string; type: "function_call"; status: "completed"; call_id: string; name: string; arguments: string }
  | { id: string; type: "custom_tool_call"; status: "completed"; call_id: string; name: string; input: string }
  | { id: string; type: "reasoning"; [field: string]: unknown };

/** The response's output items, with ids unique to the response (later requests may reference them). */
function outputItems(reply: ResolvedReply, request: DecodedRequest, responseId: string): OutputItem[] {
  const serial = responseId.slice("resp_".length);
  // The model's reasoning items come first, as it sent them (their ids and encrypted content kept).
  const items: OutputItem[] = (reply.reasoning ?? []).filter((part) => part.type === "reasoning") as unknown as OutputItem[];
  if (reply.text !== "") {
    items.push({
      id: `msg_${serial}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: reply.text, annotations: [], logprobs: [] }],
    });
  }
  reply.toolCalls.forEach((call, i) => {
    const custom = request.view.tools.some((tool) => tool.name === call.name && tool.type === "custom");
    if (custom)
      items.push({
        id: `ctc_${serial}_${i}`,
        type: "custom_tool_call",
        status: "completed",
        call_id: call.id,
        name: call.name,
        input: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
      });
    else
      items.push({
        id: `fc_${serial}_${i}`,
        type: "function_call",
        status: "completed",
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.input),
      });
  });
  return items;
}

/** The response object, echoing the request's settings as the real API does. */
function responseObject(reply: ResolvedReply, request: DecodedRequest, responseId: string, status: "in_progress" | "completed") {
  const done = status === "completed";
  const body = request.body;
  return {
    id: responseId,
    object: "response",
    created_at: 1_700_000_000,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: request.model,
    output: done ? outputItems(reply, request, responseId) : [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: body.reasoning ?? { effort: null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? "disabled",
    usage: done
      ? {
          input_tokens: reply.usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: reply.usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: reply.usage.totalTokens,
        }
      : null,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}
