import type { AgentLibrary, LangchainModel } from "../detect.js";
import { ANY_KEY, type SourceLanguage, standIn, typed, UNREACHABLE } from "./shared.js";
import { anthropicAgent, openaiAgent } from "./wire-agents.js";

/** `evals/weather-agent.{ts,mjs}` for each library: a one-tool agent written as that library's users write one. */
export function weatherAgentFile(library: AgentLibrary, lang: SourceLanguage, langchainModel?: LangchainModel): string {
  const t = typed(lang);
  switch (library) {
    case "ai-sdk":
      return `${standIn("ai-sdk")}
import { generateText, jsonSchema, ${t("type LanguageModel, ")}stepCountIs, tool } from "ai";

export const tools = {
  get_weather: tool({
    description: "The current weather in a city.",
    inputSchema: jsonSchema${t("<{ city: string }>")}({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: async ({ city })${t(": Promise<{ tempC: number }>")} => {
      ${UNREACHABLE}
    },
  }),
};

export async function weatherAgent(model${t(": LanguageModel")}, message${t(": string")})${t(": Promise<string>")} {
  const { text } = await generateText({ model, tools, prompt: message, stopWhen: stepCountIs(5) });
  return text;
}
`;
    case "openai":
      return openaiAgent(lang);
    case "anthropic":
      return anthropicAgent(lang);
    case "langchain":
      return langchainAgent(lang, langchainModel ?? "@langchain/openai");
    case "agents-sdk":
      return `${standIn("wire")}
import { Agent, run, setDefaultOpenAIKey, tool } from "@openai/agents";

${ANY_KEY}
setDefaultOpenAIKey(process.env.OPENAI_API_KEY ?? "sk-test");

const getWeather = tool({
  name: "get_weather",
  description: "The current weather in a city.",
  parameters: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  strict: true,
  execute: async (input) => {
    const { city } = input${t(" as { city: string }")};
    ${UNREACHABLE}
  },
});
export const tools = { get_weather: getWeather };
const agent = new Agent({
  name: "weather",
  instructions: "Answer weather questions.",
  model: "gpt-4.1-mini",
  tools: [getWeather],
});

export async function weatherAgent(message${t(": string")})${t(": Promise<string>")} {
  const result = await run(agent, message);
  return String(result.finalOutput ?? "");
}
`;
    case "plain":
      return `${standIn("none")}
// No agent library was found in package.json: a plain agent that calls its tool, with no model.

export const tools = {
  get_weather: async ({ city }${t(": { city: string }")})${t(": Promise<{ tempC: number }>")} => {
    ${UNREACHABLE}
  },
};

export async function weatherAgent(message${t(": string")})${t(": Promise<string>")} {
  const city = /in (\\w+)/.exec(message)?.[1] ?? "Paris";
  const { tempC } = await tools.get_weather({ city });
  return \`In \${city} it is \${tempC}°C.\`;
}
`;
  }
}

function langchainAgent(lang: SourceLanguage, modelPackage: LangchainModel): string {
  const t = typed(lang);
  const anthropic = modelPackage === "@langchain/anthropic";
  const model = anthropic
    ? 'new ChatAnthropic({\n  model: "claude-sonnet-4-5",\n  apiKey: process.env.ANTHROPIC_API_KEY ?? "sk-ant-test",\n  maxRetries: 0,\n})'
    : 'new ChatOpenAI({ model: "gpt-4.1-mini", apiKey: process.env.OPENAI_API_KEY ?? "sk-test", maxRetries: 0 })';
  return `${standIn("wire")}
import { tool } from "@langchain/core/tools";
${anthropic ? 'import { ChatAnthropic } from "@langchain/anthropic";' : 'import { ChatOpenAI } from "@langchain/openai";'}
import { createAgent } from "langchain";

export const tools = [
  tool(
    async ({ city }${t(": { city: string }")}) => {
      ${UNREACHABLE}
    },
    {
      name: "get_weather",
      description: "The current weather in a city.",
      schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ),
];

${ANY_KEY}
const model = ${model};
const agent = createAgent({ model, tools });

export async function weatherAgent(message${t(": string")})${t(": Promise<string>")} {
  const state = await agent.invoke({ messages: [{ role: "user", content: message }] });
  return String(state.messages.at(-1)?.content ?? "");
}
`;
}
