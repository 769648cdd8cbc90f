import { compactJson, oneLine } from "../../src/exits/excerpt.js";
import type { ModelCall, Turn } from "../../src/trace/types.js";

/** The "Model calls:" section of a failure message: the turns' model calls, numbered. */
export function modelCallsSection(turns: readonly Turn[]): string {
  const calls = turns.flatMap((turn) => turn.modelCalls);
  if (calls.length === 0) return "Model calls:\n  (no model calls traced: use mockModel() or the wire mock)";
  return `Model calls:\n${calls.map((call, i) => `  ${i + 1}. ${formatModelCall(call)}`).join("\n")}`;
}

function formatModelCall(call: ModelCall): string {
  const tools = offeredTools(call);
  const reply = call.error
    ? `failed: ${oneLine(call.error.message)}`
    : [
        call.reply.text ? compactJson(call.reply.text, 60) : "",
        ...call.reply.toolCalls.map((tc) => `${tc.name}(${compactJson(tc.input, 40)})`),
      ]
        .filter(Boolean)
        .join(" + ");
  return `${call.provider} ${call.model}${call.streamed ? " (stream)" : ""}: tools [${tools.join(", ")}] → ${reply} (${call.usage.inputTokens} in, ${call.usage.outputTokens} out)`;
}

/** The tool names offered on a model call. */
export function offeredTools(call: ModelCall): string[] {
  const request = call.request as { tools?: readonly { name: string }[] } | undefined;
  return (request?.tools ?? []).map((tool) => tool.name);
}
