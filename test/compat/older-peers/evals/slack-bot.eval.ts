import { expect, test } from "vitest";
import { createSession, type MockModelRequest } from "tooltrace";
import { answer } from "./slack-bot.js";

const model = (request: MockModelRequest) =>
  request.toolResults.length === 0
    ? { toolCalls: [{ name: "getWeather", input: { latitude: 48.85, longitude: 2.35, city: "Paris" } }] }
    : `It is ${(request.toolResults[0]?.output as { temperature: number }).temperature}°C in Paris.`;

test("ai 4: the Slack bot's inline tool is stubbed in strict mode, and its WebClient (axios) is answered by an HTTP mock", async () => {
  const session = createSession({
    agent: (message: string) => answer("C123", message),
    llm: model,
    strict: true,
    stubs: [{ id: "paris", tool: "getWeather", match: { city: { const: "Paris" } }, outcome: { response: { temperature: 21 } } }],
    http: [{ id: "slack", method: "POST", url: "https://slack.com/api/chat.postMessage", outcome: { status: 200, json: { ok: true, ts: "1.1" } } }],
  });
  const turn = await session.send("What's the weather in Paris?");
  expect(turn).toSucceed();
  expect(turn.text).toBe("It is 21°C in Paris.");
  expect(turn).toHaveCalledTool("getWeather", { input: { city: "Paris" }, output: { temperature: 21 } });
  expect(turn).toHaveRequested("/api/chat.postMessage", {
    method: "POST",
    body: expect.objectContaining({ channel: "C123", text: "It is 21°C in Paris." }),
  });
});
