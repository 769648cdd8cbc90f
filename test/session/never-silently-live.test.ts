import OpenAI from "openai";
import { expect, test } from "vitest";
import { createSession } from "tooltrace";
import { startLlmServer } from "tooltrace/msw";

const agent = async (message: string) => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const reply = await client.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: message }] });
  return reply.choices[0]?.message.content ?? "";
};

test("a session given `llm` is answered by it with no wire mock running: under `fetch`, never the real API", async () => {
  const turn = await createSession({ agent, llm: ["Hello from the mock."] }).send("hi");
  expect(turn.text).toBe("Hello from the mock.");
  expect(turn.modelCalls[0]?.http?.url).toBe("https://api.openai.com/v1/chat/completions");
});

test("with tooltrace's MSW server running, the same session is answered by `llm` through MSW", async () => {
  const server = startLlmServer();
  try {
    const turn = await createSession({ agent, llm: ["Hello from the mock."] }).send("hi");
    expect(turn.text).toBe("Hello from the mock.");
  } finally {
    server.close();
  }
});

test("a session with no model scripted never reaches the provider's API: its client is answered with the refusal", async () => {
  const session = createSession({ agent });
  const turn = await session.send("hi");
  expect(turn.status).toBe("failed");
  expect(turn.error?.message).toContain("api.openai.com is OpenAI's API: script the model with createSession({ llm })");
  expect(session.takeViolations()).toEqual([expect.stringContaining("POST https://api.openai.com/v1/chat/completions was sent")]);
});
