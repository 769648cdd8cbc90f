import type { ResultWriter } from "../chain/chain-call.js";
import type { ResolvedReply } from "../model/types.js";
import type { HttpCall, ModelCall, ToolCall } from "../trace/types.js";

/** A tool's result is what the agent saw. */
export const writeToolResult: ResultWriter<ToolCall> = (record, output) => {
  record.output = output;
};

/** A model's result is its resolved reply: text, tool calls and usage. */
export const writeModelResult: ResultWriter<ModelCall> = (record, reply) => {
  const resolved = reply as ResolvedReply;
  record.reply = { text: resolved.text, toolCalls: resolved.toolCalls };
  record.usage = resolved.usage;
  if (record.http) record.http = { ...record.http, statusCode: 200 };
};

/** An HTTP exchange's result is the response; the trace keeps its status. */
export const writeHttpResult: ResultWriter<HttpCall> = (record, response) => {
  if (response instanceof Response) record.statusCode = response.status;
};
