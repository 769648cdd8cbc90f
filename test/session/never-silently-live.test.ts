import OpenAI from "openai";
import { expect, test } from "vitest";
import { createSession, StubConfigError } from "tooltrace";
import { startLlmServer } from "tooltrace/msw";

test("a session given `llm` with no wire mock running is refused: the client would have gone to its real API", async () => {
  const agent = async (message: string) => {
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: message }] });
    return reply.choices[0]?.message.content ?? "";
  };
  let refusal: unknown;
  try {
    createSession({ agent, llm: ["Hello from the mock."] });
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(StubConfigError);
  expect((refusal as StubConfigError).pointer).toBe("/llm");
  expect(String((refusal as Error).message)).toContain("`llm` answers model calls on the LLM wire, and no wire mock is running");
  // With the wire mock running, the same session is answered by `llm`.
  const server = startLlmServer();
  try {
    const turn = await createSession({ agent, llm: ["Hello from the mock."] }).send("hi");
    expect(turn.text).toBe("Hello from the mock.");
  } finally {
    server.close();
  }
});
