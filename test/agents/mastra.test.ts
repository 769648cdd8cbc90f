import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, type MockModelRequest, type MockModelResponse } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";

// Mastra 1.x needs Node 22: installed in the latest-majors project of `npm run test:matrix`, not on Node 20.
const installed = (() => {
  try {
    createRequire(import.meta.url).resolve("@mastra/core/agent");
    return true;
  } catch {
    return false;
  }
})();

// Mastra is not installed where the suite's types are checked (Node 20): its modules load by name.
const load = (id: string): Promise<unknown> => import(/* @vite-ignore */ id);
type MastraAgentClass = new (options: object) => { generate(message: string): Promise<{ text: string }> };

/** The model on the wire: asks for the weather in Paris, then reports what the tool said. */
function weatherModel(request: MockModelRequest): MockModelResponse | string {
  const result = request.toolResults.at(-1);
  if (result === undefined) return { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] };
  return `It is ${JSON.stringify(result.output)}.`;
}

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({ respond: weatherModel });
});
afterAll(() => llm.close());

describe.skipIf(!installed)("Mastra: createTool and Agent", () => {
  test("a createTool tool given to an Agent is caught, stubbed by its input, and traced; the real one never runs", async () => {
    const { Agent } = (await load("@mastra/core/agent")) as { Agent: MastraAgentClass };
    const { createTool } = (await load("@mastra/core/tools")) as { createTool: (options: object) => object };
    const { createOpenAI } = await import("@ai-sdk/openai");
    const realRuns: string[] = [];
    const weather = createTool({
      id: "get_weather",
      description: "The weather in a city.",
      inputSchema: z.object({ city: z.string() }),
      execute: async (input: { city: string }) => (realRuns.push(input.city), { tempC: 99 }),
    });
    const model = createOpenAI({ apiKey: "sk-test" }).chat("gpt-4o-mini");
    const agent = new Agent({
      id: "weather",
      name: "weather",
      instructions: "You report the weather.",
      model,
      tools: { get_weather: weather },
    });
    const session = createSession({
      tools: { get_weather: weather },
      strict: true,
      stubs: [{ id: "paris", tool: "get_weather", match: { city: { const: "Paris" } }, outcome: { response: { tempC: 21 } } }],
      agent: async (message) => (await agent.generate(message)).text,
    });
    const turn = await session.send("What is the weather in Paris?");
    expect(realRuns).toEqual([]);
    expect(turn).toHaveCalledTool("get_weather", { input: { city: "Paris" }, output: { tempC: 21 } });
    expect(turn.text).toBe('It is {"tempC":21}.');
    expect(session.takeViolations()).toEqual([]);
  });
});
