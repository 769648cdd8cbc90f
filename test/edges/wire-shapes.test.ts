import { afterAll, beforeAll, expect, test } from "vitest";
import { type LlmServer, startLlmServer } from "tooltrace/msw";

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer();
});
afterAll(() => llm.close());

const headers = {
  "content-type": "application/json",
  authorization: "Bearer sk-test",
  "x-api-key": "sk-test",
  "anthropic-version": "2023-06-01",
};
async function post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const CHAT = "https://api.openai.com/v1/chat/completions";
const RESPONSES = "https://api.openai.com/v1/responses";
const MESSAGES = "https://api.anthropic.com/v1/messages";
const user = [{ role: "user", content: "hi" }];

test.each([
  ["Chat Completions, tools: [null]", CHAT, { model: "gpt-4o", messages: user, tools: [null] }, "tools[0]"],
  ["Responses, tools: [null]", RESPONSES, { model: "gpt-4o", input: "hi", tools: [null] }, "tools[0]"],
  ["Chat Completions, content: [null]", CHAT, { model: "gpt-4o", messages: [{ role: "user", content: [null] }] }, "messages[0].content[0]"],
])("%s gets OpenAI's 400, naming the parameter (a 500 with MSW's stack before)", async (_name, url, body, param) => {
  expect(await post(url, body)).toEqual({
    status: 400,
    body: { error: { message: `${param} must be an object.`, type: "invalid_request_error", param, code: null } },
  });
});

test.each([
  ["tools: [null]", { tools: [null], messages: user }, "tools.0"],
  ["content: [null]", { messages: [{ role: "user", content: [null] }] }, "messages.0.content.0"],
])("Anthropic Messages, %s gets Anthropic's 400 (a 500 before)", async (_name, body, path) => {
  expect(await post(MESSAGES, { model: "claude-sonnet-4-5", max_tokens: 10, ...body })).toEqual({
    status: 400,
    body: { type: "error", error: { type: "invalid_request_error", message: `${path} must be an object.` } },
  });
});
