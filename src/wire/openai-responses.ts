import { chunkText } from "../model/chunk-text.js";
import { parseMaybeJson, requestView, toolView } from "../model/request-view.js";
import type { MockModelMessage, MockModelTool, MockModelToolResult, ResolvedReply } from "../model/types.js";
import { appendToolResult, asRecord, chunkJson, contentText, sse, WireRequestError, type DecodedRequest, type WireCodec } from "./codec.js";

const TEXT_PARTS = ["input_text", "output_text", "text"];

/** The OpenAI Responses API (`POST /v1/responses`), JSON and streaming. */
export const openaiResponses: WireCodec = {
  api: "openai.responses",
  path: "/responses",
  idPrefix: "call_",

  decode(raw) {
    const body = asRecord(raw, "The request body");
    if (typeof body.model !== "string") throw new WireRequestError("Missing required parameter: 'model'.");
    const messages: MockModelMessage[] = [];
    const toolResults: MockModelToolResult[] = [];
    const names = new Map<string, string>();
    if (typeof body.instructions === "string" && body.instructions !== "") messages.push({ role: "system", text: body.instructions });
    const items: unknown[] = typeof body.input === "string" ? [{ role: "user", content: body.input }] : Array.isArray(body.input) ? body.input : [];
    if (body.input === undefined) throw new WireRequestError("Missing required parameter: 'input'.");
    for (const [i, raw] of items.entries()) {
      const item = asRecord(raw, `input[${i}]`);
      const previous = messages.at(-1);
      if (item.type === "function_call") {
        const call = { id: String(item.call_id ?? ""), name: String(item.name ?? ""), input: parseMaybeJson(String(item.arguments ?? "{}")) };
        names.set(call.id, call.name);
        // Consecutive calls (and an assistant message just before them) form one assistant turn.
        if (previous?.role === "assistant") messages[messages.length - 1] = { ...previous, toolCalls: [...(previous.toolCalls ?? []), call] };
        else messages.push({ role: "assistant", text: "", toolCalls: [call] });
      } else if (item.type === "function_call_output") {
        const text = contentText(item.output, TEXT_PARTS);
        const result = { id: String(item.call_id ?? ""), name: names.get(String(item.call_id ?? "")) ?? "", output: parseMaybeJson(text), isError: false };
        toolResults.push(result);
        appendToolResult(messages, result, text);
      } else if (item.type === undefined || item.type === "message") {
        const role = item.role === "developer" ? "system" : item.role;
        if (role !== "user" && role !== "assistant" && role !== "system") throw new WireRequestError(`Invalid value for 'input[${i}].role'.`);
        messages.push({ role, text: contentText(item.content, TEXT_PARTS) });
      }
    }
    const tools: MockModelTool[] = Array.isArray(body.tools)
      ? (body.tools as { type?: string; name?: string; description?: string; parameters?: unknown }[])
          .filter((tool) => tool.type === "function" && typeof tool.name === "string")
          .map((tool) => toolView(tool.name as string, tool.description, tool.parameters))
      : [];
    return { model: body.model, stream: body.stream === true, includeUsage: true, view: requestView(messages, tools, toolResults) };
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
    const items = outputItems(reply, responseId);
    items.forEach((item, output_index) => {
      if (item.type === "message") {
        const text = reply.text;
        events.push(event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } }));
        const part = { type: "output_text", text: "", annotations: [] };
        events.push(event("response.content_part.added", { item_id: item.id, output_index, content_index: 0, part }));
        for (const delta of chunkText(text)) events.push(event("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] }));
        events.push(event("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text, logprobs: [] }));
        events.push(event("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part: { ...part, text } }));
      } else {
        events.push(event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } }));
        for (const delta of chunkJson(item.arguments)) events.push(event("response.function_call_arguments.delta", { item_id: item.id, output_index, delta }));
        events.push(event("response.function_call_arguments.done", { item_id: item.id, output_index, name: item.name, arguments: item.arguments }));
      }
      events.push(event("response.output_item.done", { output_index, item }));
    });
    events.push(event("response.completed", { response: responseObject(reply, request, responseId, "completed") }));
    return events;
  },

  errorBody(kind, message) {
    const type = kind === "server" ? "server_error" : "invalid_request_error";
    return { error: { message, type, param: null, code: kind === "not_found" ? "model_not_found" : null } };
  },
};

type OutputItem =
  | { id: string; type: "message"; status: "completed"; role: "assistant"; content: { type: "output_text"; text: string; annotations: []; logprobs: [] }[] }
  | { id: string; type: "function_call"; status: "completed"; call_id: string; name: string; arguments: string };

function outputItems(reply: ResolvedReply, responseId: string): OutputItem[] {
  const items: OutputItem[] = [];
  if (reply.text !== "") {
    items.push({ id: `msg_${responseId.slice("resp_".length)}`, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: reply.text, annotations: [], logprobs: [] }] });
  }
  for (const call of reply.toolCalls) {
    items.push({ id: `fc_${call.id}`, type: "function_call", status: "completed", call_id: call.id, name: call.name, arguments: JSON.stringify(call.input) });
  }
  return items;
}

function responseObject(reply: ResolvedReply, request: DecodedRequest, responseId: string, status: "in_progress" | "completed") {
  const done = status === "completed";
  return {
    id: responseId,
    object: "response",
    created_at: 1_700_000_000,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: request.model,
    output: done ? outputItems(reply, responseId) : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: done
      ? {
          input_tokens: reply.usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: reply.usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: reply.usage.totalTokens,
        }
      : null,
    user: null,
    metadata: {},
  };
}
