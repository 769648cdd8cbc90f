import OpenAI from "openai";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startLlmServer, type LlmServer } from "tooltrace/msw";

// No user server in this file: tooltrace starts its own, hermetic for everything that is not an LLM call.
let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({ respond: "hermetic", onUnhandledRequest: "error" });
});
afterAll(() => llm.close());

test("its own server answers the LLM APIs and, with onUnhandledRequest: error, refuses everything else", async () => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const response = await client.responses.create({ model: "gpt-4.1", input: "hi" });
  expect(response.output_text).toBe("hermetic");
  await expect(fetch("https://api.example.com/anything")).rejects.toThrow();
});

test("one MSW server per process: a second startLlmServer() joins it, answers first while open, and the server stays until the last closes", async () => {
  const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
  const ask = async () => (await client.responses.create({ model: "gpt-4.1", input: "hi" })).output_text;
  const second = startLlmServer({ respond: "second" });
  expect(await ask()).toBe("second");
  second.close();
  expect(await ask()).toBe("hermetic");
  // The first one's policy still holds: the server did not stop with the second.
  await expect(fetch("https://api.example.com/anything")).rejects.toThrow();
  // One server, one policy: asking the running one for another is refused.
  expect(() => startLlmServer({ onUnhandledRequest: "bypass" })).toThrow(/already running in this process with onUnhandledRequest "error"/);
});
