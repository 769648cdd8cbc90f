import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { describe, expect, test } from "vitest";
import { createSession, type MockModelRequest } from "tooltrace";

// The shape of Vercel's AI SDK Slack bot: tools defined inside the agent's function, in its generateText call,
// each calling a real service. Before, a rule for one was refused ("the session has no tool getWeather") and
// strict mode failed every eval ("no call of getWeather reached tooltrace").
let realCalls = 0;
async function slackBot(message: string): Promise<string> {
  const openai = createOpenAI({ apiKey: "sk-test" });
  const { text } = await generateText({
    model: openai("gpt-4o"),
    prompt: message,
    stopWhen: stepCountIs(4),
    tools: {
      getWeather: tool({
        description: "The weather in a city.",
        inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
        execute: async ({ city }) => {
          realCalls += 1;
          const response = await fetch(`https://api.open-meteo.example/v1/forecast?city=${city}`);
          return (await response.json()) as unknown;
        },
      }),
    },
  });
  return text;
}

/** The model asks for the weather in Paris, then says what the tool answered. */
const weatherModel = (request: MockModelRequest) =>
  request.toolResults.length === 0
    ? { toolCalls: [{ name: "getWeather", input: { city: "Paris" } }] }
    : `It is ${JSON.stringify(request.toolResults[0]?.output)} in Paris.`;

describe("tools the agent defines inline, in its generateText call", () => {
  test("a stub rule answers one, in strict mode, and its real executor never runs", async () => {
    const before = realCalls;
    const session = createSession({
      agent: slackBot,
      llm: weatherModel,
      strict: true,
      stubs: [{ id: "paris", tool: "getWeather", match: { city: { const: "Paris" } }, outcome: { response: { tempC: 21 } } }],
    });
    const turn = await session.send("What's the weather in Paris?");
    expect(turn).toSucceed();
    expect(turn).toHaveCalledTool("getWeather", { input: { city: "Paris" }, output: { tempC: 21 } });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "paris", outcomeIndex: 0 });
    expect(turn.text).toBe('It is {"tempC":21} in Paris.');
    expect(realCalls).toBe(before);
  });

  test("strict mode refuses one no rule answers: the real executor never runs", async () => {
    const before = realCalls;
    const session = createSession({ agent: slackBot, llm: weatherModel, strict: true });
    await session.send("What's the weather in Paris?");
    expect(realCalls).toBe(before);
    expect(session.takeViolations()).toEqual([expect.stringContaining("strict mode: no stub rule matched getWeather")]);
  });

  test("its own failure is the call's error, as the AI SDK saw it", async () => {
    const session = createSession({ agent: slackBot, llm: weatherModel, allowHosts: [] });
    const turn = await session.send("What's the weather in Paris?");
    expect(turn).toHaveFailedAction("getWeather", { error: /api\.open-meteo\.example/ });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "real" });
    session.takeViolations();
  });

  test("a rule naming a tool the agent never had is reported with the name it meant", async () => {
    const session = createSession({
      agent: slackBot,
      llm: weatherModel,
      stubs: [
        { id: "paris", tool: "getWeather", outcome: { response: { tempC: 21 } } },
        { id: "typo", tool: "getWether", outcome: { response: { tempC: 0 } } },
      ],
    });
    await session.send("What's the weather in Paris?");
    session.close();
    expect(session.takeViolations()).toEqual([
      'stub rule "typo" names the tool "getWether", which the agent never had: did you mean "getWeather"? Its tools: getWeather.',
    ]);
  });
});
