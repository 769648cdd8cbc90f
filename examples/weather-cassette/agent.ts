import { generateText, stepCountIs, tool, type LanguageModel } from "ai";
import { z } from "zod";

/** Where the weather API lives: the real one in production; when recording the cassette, a local fake. */
export const WEATHER_API = process.env.WEATHER_API_URL ?? "http://127.0.0.1:45871";

/** The weather tools: a real HTTP client, with its API key. */
export const weatherTools = {
  current_weather: tool({
    description: "Current weather for a city.",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      const response = await fetch(
        `${WEATHER_API}/v1/current?city=${encodeURIComponent(city)}&api_key=${process.env.WEATHER_API_KEY ?? "wk-live-0b5e9a1c"}`,
      );
      if (!response.ok) throw new Error(`weather API answered ${response.status}`);
      return (await response.json()) as { city: string; tempC: number; sky: string };
    },
  }),
};

/** A weather assistant on the AI SDK. Nothing in it knows about tests. */
export function weatherAgent(model: LanguageModel) {
  return async (message: string) => (await generateText({ model, tools: weatherTools, prompt: message, stopWhen: stepCountIs(4) })).text;
}
