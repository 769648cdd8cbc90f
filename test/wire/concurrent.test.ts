import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { createLlmAnswer } from "tooltrace/wire";

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

test("a long-lived wire answer keeps the last 1,000 calls it answered, not every one (16,042 after a benchmark before)", async () => {
  const llm = createLlmAnswer({ respond: "ok" });
  const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] });
  for (let i = 0; i < 1_100; i++) await llm.answer(new Request("http://127.0.0.1/v1/chat/completions", { method: "POST", body }));
  expect(llm.calls).toHaveLength(1_000);
  expect(llm.calls.at(-1)?.http?.statusCode).toBe(200);
});
