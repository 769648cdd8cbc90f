// The shape of Vercel's AI SDK Slack bot on ai 4: tools defined inline in its generateText call, each calling a
// real service, and Slack's WebClient (axios, node:http) made when the module loads.
import { openai } from "@ai-sdk/openai";
import { WebClient } from "@slack/web-api";
import { generateText, tool } from "ai";
import { z } from "zod";

const slack = new WebClient(process.env.SLACK_BOT_TOKEN, { retryConfig: { retries: 0 } });

export async function answer(channel: string, question: string): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o"),
    system: "You are a Slack bot assistant.",
    prompt: question,
    maxSteps: 10,
    tools: {
      getWeather: tool({
        description: "Get the current weather at a location",
        parameters: z.object({ latitude: z.number(), longitude: z.number(), city: z.string() }),
        execute: async ({ latitude, longitude }) => {
          const response = await fetch(
            `https://api.open-meteo.com/v1/forecast?latitude=${latitude}&longitude=${longitude}&current=temperature_2m`,
          );
          const weather = (await response.json()) as { current: { temperature_2m: number } };
          return { temperature: weather.current.temperature_2m };
        },
      }),
    },
  });
  await slack.chat.postMessage({ channel, text });
  return text;
}
