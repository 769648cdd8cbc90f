import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";

let llm: LlmServer;
beforeAll(() => {
  // One wire mock for every test; the reply echoes the user message after a delay that depends on it.
  llm = startLlmServer({
    respond: async ({ lastUserMessage }) => {
      await new Promise((resolve) => setTimeout(resolve, lastUserMessage === "a" ? 30 : 2));
      return `echo ${lastUserMessage}`;
    },
  });
});
afterAll(() => llm.close());

describe("model calls over the wire are attributed to the turn that made them", () => {
  test.concurrent.each(["a", "b", "c"])("concurrent session %s", async (name) => {
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const session = createSession({
      agent: async (message) => {
        const first = await client.chat.completions.create({ model: `model-${name}`, messages: [{ role: "user", content: message }] });
        const second = await client.chat.completions.create({
          model: `model-${name}`,
          messages: [{ role: "user", content: message }],
          stream: true,
        });
        let streamed = "";
        for await (const chunk of second) streamed += chunk.choices[0]?.delta.content ?? "";
        return `${first.choices[0]?.message.content} / ${streamed}`;
      },
    });
    const turn = await session.send(name);
    expect(turn.text).toBe(`echo ${name} / echo ${name}`);
    expect(turn.modelCalls.map((call) => [call.model, call.streamed])).toEqual([
      [`model-${name}`, false],
      [`model-${name}`, true],
    ]);
  });
});
