import { expect, test } from "vitest";
import { createSession, type MockModelRequest } from "tooltrace";
import { weatherEmail } from "./weather-email.js";

const model = (request: MockModelRequest) => {
  const names = request.toolResults.map((result) => result.name);
  if (!request.messages.some((message) => message.text.includes("You send emails")))
    return names.includes("get_weather")
      ? { toolCalls: [{ name: "transfer_to_mailer", input: {} }] }
      : { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] };
  return names.includes("send_email")
    ? "Sent the forecast."
    : { toolCalls: [{ name: "send_email", input: { to: "ada@example.com", subject: "Weather", body: "Paris: sunny" } }] };
};

test("the Agents SDK 0.3: inline tool()s stubbed in strict mode, through a handoff, streamed by run()", async () => {
  const session = createSession({
    agent: weatherEmail,
    llm: model,
    strict: true,
    stubs: [
      { id: "paris", tool: "get_weather", outcome: { response: "Paris: sunny +21°C" } },
      { id: "mail", tool: "send_email", match: { to: { const: "ada@example.com" } }, outcome: { response: "sent" } },
    ],
  });
  const turn = await session.send("Email ada@example.com the weather in Paris.");
  expect(turn).toSucceed();
  expect(turn.text).toBe("Sent the forecast.");
  expect(turn).toHaveToolOrder(["get_weather", "send_email"]);
  expect(turn).toHaveCalledTool("send_email", { output: "sent" });
});
