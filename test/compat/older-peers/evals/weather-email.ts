// An OpenAI Agents SDK 0.3 agent as its examples write one: tools made with tool() inside the function, a handoff
// from the forecaster to the mailer, and the run streamed through the SDK's own run().
import { Agent, run, tool } from "@openai/agents";
import { z } from "zod";

export async function weatherEmail(message: string): Promise<string> {
  const getWeather = tool({
    name: "get_weather",
    description: "The weather in a city.",
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => (await fetch(`https://wttr.in/${city}?format=3`)).text(),
  });
  const sendEmail = tool({
    name: "send_email",
    description: "Send an email.",
    parameters: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    execute: async ({ to, subject, body }) => {
      const response = await fetch("https://api.resend.com/emails", {
        method: "POST",
        headers: { authorization: `Bearer ${process.env.RESEND_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ from: "bot@example.com", to, subject, text: body }),
      });
      return response.ok ? "sent" : "failed";
    },
  });
  const mailer = new Agent({ name: "mailer", instructions: "You send emails.", tools: [sendEmail] });
  const forecaster = new Agent({
    name: "forecaster",
    instructions: "You look the weather up, then hand off to the mailer.",
    tools: [getWeather],
    handoffs: [mailer],
  });
  const stream = await run(forecaster, message, { stream: true });
  for await (const _event of stream) {
    // Consumed as a UI would.
  }
  await stream.completed;
  return String(stream.finalOutput ?? "");
}
