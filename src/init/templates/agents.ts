import type { AgentLibrary } from "../detect.js";
import { STAND_IN } from "./shared.js";

const SCHEMA = `{ type: "object", properties: { city: { type: "string" } }, required: ["city"] }`;
const UNREACHABLE = "throw new Error(`the weather service is not reachable from tests (asked for ${city})`);";

/** `evals/weather-agent.ts` for each library: a one-tool agent written as that library's users write one. */
export function weatherAgentFile(library: AgentLibrary, langchainModel?: string): string {
  switch (library) {
    case "ai-sdk":
      return `${STAND_IN}
import { generateText, jsonSchema, type LanguageModel, stepCountIs, tool } from "ai";

export const tools = {
  get_weather: tool({
    description: "The current weather in a city.",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: async ({ city }): Promise<{ tempC: number }> => {
      ${UNREACHABLE}
    },
  }),
};

export async function weatherAgent(model: LanguageModel, message: string): Promise<string> {
  const { text } = await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(5) });
  return text;
}
`;
    case "openai":
      return `${STAND_IN}
import OpenAI from "openai";

export const tools = {
  get_weather: async ({ city }: { city: string }): Promise<{ tempC: number }> => {
    ${UNREACHABLE}
  },
};

// Any key: in a tooltrace run the session's scripted model answers on the wire.
const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? "sk-test" });

export async function weatherAgent(message: string): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: message }];
  const offered = [{ type: "function" as const, function: { name: "get_weather", parameters: ${SCHEMA} } }];
  for (let step = 0; step < 5; step++) {
    const reply = (await client.chat.completions.create({ model: "gpt-4.1-mini", messages, tools: offered })).choices[0]?.message;
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
    case "anthropic":
      return `${STAND_IN}
import Anthropic from "@anthropic-ai/sdk";

export const tools = {
  get_weather: async ({ city }: { city: string }): Promise<{ tempC: number }> => {
    ${UNREACHABLE}
  },
};

// Any key: in a tooltrace run the session's scripted model answers on the wire.
const client = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY ?? "sk-ant-test" });

export async function weatherAgent(message: string): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: message }];
  const offered: Anthropic.Tool[] = [{ name: "get_weather", input_schema: ${SCHEMA} }];
  for (let step = 0; step < 5; step++) {
    const reply = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: offered });
    messages.push({ role: "assistant", content: reply.content });
    const calls = reply.content.filter((block) => block.type === "tool_use");
    if (calls.length === 0) return reply.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const call of calls) {
      const output = await tools.get_weather(call.input as { city: string });
      results.push({ type: "tool_result", tool_use_id: call.id, content: JSON.stringify(output) });
    }
    messages.push({ role: "user", content: results });
  }
  return "";
}
`;
    case "langchain": {
      const anthropic = langchainModel === "@langchain/anthropic";
      return `${STAND_IN}
import { tool } from "@langchain/core/tools";
${anthropic ? 'import { ChatAnthropic } from "@langchain/anthropic";' : 'import { ChatOpenAI } from "@langchain/openai";'}
import { createAgent } from "langchain";

export const tools = [
  tool(
    async ({ city }: { city: string }) => {
      ${UNREACHABLE}
    },
    { name: "get_weather", description: "The current weather in a city.", schema: ${SCHEMA} },
  ),
];

// Any key: in a tooltrace run the session's scripted model answers on the wire.
const model = ${anthropic ? 'new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: process.env.ANTHROPIC_API_KEY ?? "sk-ant-test", maxRetries: 0 })' : 'new ChatOpenAI({ model: "gpt-4.1-mini", apiKey: process.env.OPENAI_API_KEY ?? "sk-test", maxRetries: 0 })'};
const agent = createAgent({ model, tools });

export async function weatherAgent(message: string): Promise<string> {
  const state = await agent.invoke({ messages: [{ role: "user", content: message }] });
  return String(state.messages.at(-1)?.content ?? "");
}
`;
    }
    case "agents-sdk":
      return `${STAND_IN}
import { Agent, run, setDefaultOpenAIKey, tool } from "@openai/agents";

// Any key: in a tooltrace run the session's scripted model answers on the wire.
setDefaultOpenAIKey(process.env.OPENAI_API_KEY ?? "sk-test");

const getWeather = tool({
  name: "get_weather",
  description: "The current weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  strict: true,
  execute: async (input) => {
    const { city } = input as { city: string };
    ${UNREACHABLE}
  },
});
export const tools = { get_weather: getWeather };
const agent = new Agent({ name: "weather", instructions: "Answer weather questions.", model: "gpt-4.1-mini", tools: [getWeather] });

export async function weatherAgent(message: string): Promise<string> {
  const result = await run(agent, message);
  return String(result.finalOutput ?? "");
}
`;
    case "plain":
      return `${STAND_IN}
// No agent library was found in package.json: a plain agent that calls its tool, with no model.

export const tools = {
  get_weather: async ({ city }: { city: string }): Promise<{ tempC: number }> => {
    ${UNREACHABLE}
  },
};

export async function weatherAgent(message: string): Promise<string> {
  const city = /in (\\w+)/.exec(message)?.[1] ?? "Paris";
  const { tempC } = await tools.get_weather({ city });
  return \`In \${city} it is \${tempC}°C.\`;
}
`;
  }
}
