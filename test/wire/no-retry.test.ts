import Anthropic from "@anthropic-ai/sdk";
import { createOpenAI } from "@ai-sdk/openai";
import { GoogleGenAI } from "@google/genai";
import { ChatOpenAI } from "@langchain/openai";
import { generateText } from "ai";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { createSession } from "tooltrace";

// A scripted model that throws is answered with a status each client gives up on at once. It was a 422, which
// LangChain retries (only 400-407 and 409 are final to it): six more calls with backoff, then a 5 s timeout.
const clients: Record<string, () => Promise<unknown>> = {
  "the OpenAI SDK": () =>
    new OpenAI({ apiKey: "sk-test" }).chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
  "the Anthropic SDK": () =>
    new Anthropic({ apiKey: "sk-ant-test" }).messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    }),
  "Google's SDK": () => new GoogleGenAI({ apiKey: "test-key" }).models.generateContent({ model: "gemini-2.5-flash", contents: "hi" }),
  "the AI SDK (@ai-sdk/openai)": () => generateText({ model: createOpenAI({ apiKey: "sk-test" })("gpt-4o"), prompt: "hi" }),
  "LangChain's ChatOpenAI (default retries)": () => new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-test" }).invoke("hi"),
};

describe("a scripted model's own failure is not retried by any client", () => {
  for (const [name, ask] of Object.entries(clients))
    test(name, async () => {
      const session = createSession({
        agent: async () => {
          await ask();
          return "no error";
        },
        llm: () => {
          throw new Error("the script failed on purpose");
        },
      });
      const turn = await session.send("go");
      expect(turn.status).toBe("failed");
      expect(turn.modelCalls.map((call) => call.http?.statusCode ?? call.status)).toEqual([400]);
      expect(turn.modelCalls[0]?.error?.message).toContain("the script failed on purpose");
      expect(session.takeViolations()).toEqual([expect.stringContaining("the mock model failed")]);
    });
});
