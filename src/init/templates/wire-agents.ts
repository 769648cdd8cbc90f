import { ANY_KEY, type SourceLanguage, standIn, typed, UNREACHABLE } from "./shared.js";

/** The OpenAI SDK's agent: a chat completions loop that runs the tool the model asks for. */
export function openaiAgent(lang: SourceLanguage): string {
  const t = typed(lang);
  return `${standIn("wire")}
import OpenAI from "openai";

export const tools = {
  get_weather: async ({ city }${t(": { city: string }")})${t(": Promise<{ tempC: number }>")} => {
    ${UNREACHABLE}
  },
};

const getWeather${t(": OpenAI.ChatCompletionTool")} = {
  type: "function",
  function: {
    name: "get_weather",
    description: "The current weather in a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

${ANY_KEY}
const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? "sk-test" });

export async function weatherAgent(message${t(": string")})${t(": Promise<string>")} {
  const messages${t(": OpenAI.ChatCompletionMessageParam[]")} = [{ role: "user", content: message }];
  for (let step = 0; step < 5; step++) {
    const completion = await client.chat.completions.create({ model: "gpt-4.1-mini", messages, tools: [getWeather] });
    const reply = completion.choices[0]?.message;
    if (reply === undefined) return "";
    messages.push(reply);
    if (!reply.tool_calls?.length) return reply.content ?? "";
    for (const call of reply.tool_calls) {
      if (call.type !== "function") continue;
      const output = await tools.get_weather(JSON.parse(call.function.arguments));
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(output) });
    }
  }
  return "";
}
`;
}

/** The Anthropic SDK's agent: a messages loop that runs the tool the model asks for. */
export function anthropicAgent(lang: SourceLanguage): string {
  const t = typed(lang);
  return `${standIn("wire")}
import Anthropic from "@anthropic-ai/sdk";

export const tools = {
  get_weather: async ({ city }${t(": { city: string }")})${t(": Promise<{ tempC: number }>")} => {
    ${UNREACHABLE}
  },
};

const getWeather${t(": Anthropic.Tool")} = {
  name: "get_weather",
  description: "The current weather in a city.",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

${ANY_KEY}
const client = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY ?? "sk-ant-test" });

export async function weatherAgent(message${t(": string")})${t(": Promise<string>")} {
  const messages${t(": Anthropic.MessageParam[]")} = [{ role: "user", content: message }];
  for (let step = 0; step < 5; step++) {
    const reply = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages,
      tools: [getWeather],
    });
    messages.push({ role: "assistant", content: reply.content });
    const calls = reply.content.filter((block) => block.type === "tool_use");
    if (calls.length === 0) return reply.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const results${t(": Anthropic.ToolResultBlockParam[]")} = [];
    for (const call of calls) {
      const output = await tools.get_weather(call.input${t(" as { city: string }")});
      results.push({ type: "tool_result", tool_use_id: call.id, content: JSON.stringify(output) });
    }
    messages.push({ role: "user", content: results });
  }
  return "";
}
`;
}
