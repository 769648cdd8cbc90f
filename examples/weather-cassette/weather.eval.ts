import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, mockModel, type MockModelRequest } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { weatherAgent, weatherTools } from "./agent.js";
import { startFakeWeatherApi } from "./fake-weather-api.js";

// Replays the committed cassette: nothing goes out. To record it again against the local fake API:
//   TOOLTRACE_CASSETTE=record npx vitest run --config vitest.examples.config.ts examples/weather-cassette
const recording = process.env.TOOLTRACE_CASSETTE === "record";
let llm: LlmServer;
let fakeApi: Awaited<ReturnType<typeof startFakeWeatherApi>> | undefined;
beforeAll(async () => {
  llm = startLlmServer(); // catches the tools' HTTP, so it is recorded and replayed too
  if (recording) fakeApi = await startFakeWeatherApi();
});
afterAll(async () => {
  llm.close();
  await fakeApi?.close();
});

/** The model: looks up each city the user names, then summarises what the tool returned. */
const model = mockModel((request: MockModelRequest) => {
  const cities = ["Paris", "Oslo"].filter((city) => request.lastUserMessage?.includes(city));
  if (request.toolResults.length < cities.length)
    return { toolCalls: cities.slice(request.toolResults.length).map((city) => ({ name: "current_weather", input: { city } })) };
  return request.toolResults
    .map((result) =>
      result.isError
        ? `error: ${String(result.output)}`
        : `${(result.output as { city: string }).city} ${(result.output as { tempC: number }).tempC}°C`,
    )
    .join(", ");
});

describe("a weather assistant whose tool calls a real HTTP API, replayed from a cassette", () => {
  test("compares two cities", async () => {
    const session = createSession({
      name: "weather",
      agent: weatherAgent(model),
      tools: weatherTools,
      strict: !recording,
      cassette: { mode: recording ? "record" : "replay" },
    });
    const turn = await session.send("Is it warmer in Paris or Oslo?");
    expect(turn.text).toBe("Paris 21°C, Oslo 4°C");
    expect(turn).toHaveCalledTool("current_weather", { input: { city: "Oslo" }, output: { city: "Oslo", tempC: 4, sky: "snow" } });
    expect(turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(recording ? ["real", "real"] : ["cassette", "cassette"]);
  });
});
