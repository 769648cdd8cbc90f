import { tool as langchainTool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { Agent, run, setDefaultOpenAIKey, tool as agentsTool } from "@openai/agents";
import { beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, type MockModelRequest } from "tooltrace";

// LangChain's ReAct template and an Agents SDK agent, as their examples write them: the tools, the model and the
// agent made inside the agent's function, per call. Before, their tools could be stubbed only if moved out.
const realRuns: string[] = [];
beforeAll(() => setDefaultOpenAIKey("sk-test")); // any key: the session's model answers on the wire

/** The model asks for the weather in Paris once, then answers with what the tool said. */
const weatherModel = (request: MockModelRequest) =>
  request.toolResults.length === 0
    ? { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] }
    : `Paris: ${typeof request.toolResults[0]?.output === "string" ? request.toolResults[0].output : JSON.stringify(request.toolResults[0]?.output)}`;

async function reactAgent(message: string): Promise<string> {
  const getWeather = langchainTool(async ({ city }: { city: string }) => (realRuns.push(`langchain ${city}`), "rain"), {
    name: "get_weather",
    description: "The weather in a city.",
    schema: z.object({ city: z.string() }),
  });
  const agent = createReactAgent({ llm: new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-test", maxRetries: 0 }), tools: [getWeather] });
  const state = await agent.invoke({ messages: [{ role: "user", content: message }] });
  return String(state.messages.at(-1)?.content ?? "");
}

async function agentsSdkWeather(message: string): Promise<string> {
  const getWeather = agentsTool({
    name: "get_weather",
    description: "The weather in a city.",
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => (realRuns.push(`agents ${city}`), "rain"),
  });
  const agent = new Agent({ name: "weather", instructions: "Answer with the weather.", model: "gpt-4.1", tools: [getWeather] });
  return String((await run(agent, message)).finalOutput ?? "");
}

const stubs = [{ id: "sunny", tool: "get_weather", match: { city: { const: "Paris" } }, outcome: { response: "sunny, 21°C" } }];

describe("tools a framework's agent defines inline are stubbed and kept strict", () => {
  for (const [name, agent] of [
    ["LangGraph's createReactAgent (a ToolNode), the model made per call", reactAgent],
    ["the Agents SDK's tool() in an Agent run by run()", agentsSdkWeather],
  ] as const) {
    test(`${name}: a rule answers, strict, nothing real runs`, async () => {
      const before = realRuns.length;
      const session = createSession({ agent, llm: weatherModel, strict: true, stubs });
      const turn = await session.send("What's the weather in Paris?");
      expect(turn).toSucceed();
      expect(turn).toHaveCalledTool("get_weather", { input: { city: "Paris" } });
      expect(turn.toolCalls[0]?.answeredBy?.kind).toBe("stub");
      expect(turn.text).toContain("sunny, 21°C");
      expect(realRuns.slice(before)).toEqual([]);
    });

    test(`${name}: strict refuses the tool no rule answers`, async () => {
      const before = realRuns.length;
      const session = createSession({ agent, llm: weatherModel, strict: true });
      await session.send("What's the weather in Paris?");
      expect(realRuns.slice(before)).toEqual([]);
      expect(session.takeViolations()).toContainEqual(expect.stringContaining("strict mode: no stub rule matched get_weather"));
    });
  }
});
