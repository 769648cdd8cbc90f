import { generateText, stepCountIs } from "ai";
import { describe, expect, test } from "vitest";
import { createSession, mockModel, simulateUser, type MockModelRequest } from "tooltrace";
import { flightTools } from "../fixtures/flight-agent.js";

/** An agent that asks before booking: it searches on the first message and books when the user says yes. */
const assistant = mockModel((request: MockModelRequest) => {
  const said = (request.lastUserMessage ?? "").toLowerCase();
  const last = request.toolResults.at(-1);
  if (request.messages.at(-1)?.role === "tool")
    return last?.name === "book_flight" ? "Booked FL123." : "FL123 costs $299. Shall I book it?";
  if (said.includes("yes")) return { toolCalls: [{ name: "book_flight", input: { flight_id: "FL123" } }] };
  if (said.includes("paris")) return { toolCalls: [{ name: "search_flights", input: { to: "Paris" } }] };
  return "Where would you like to go?";
});

function bookingSession() {
  const { tools } = flightTools();
  return createSession({
    tools,
    agent: async (message, { history }) => {
      const result = await generateText({
        model: assistant,
        tools,
        messages: [...(history as []), { role: "user", content: message }],
        stopWhen: stepCountIs(4),
      });
      return { text: result.text, messages: [{ role: "user", content: message }, ...result.response.messages] };
    },
    stubs: [
      { id: "paris", tool: "search_flights", outcome: { response: [{ id: "FL123", price: 299 }] } },
      { id: "book", tool: "book_flight", outcome: { response: { confirmation: "CONF-1" } } },
    ],
  });
}

describe("simulateUser: a conversation driven by a simulated user, every turn traced", () => {
  test("scripted turns: each is a traced turn, and matchers read the whole conversation", async () => {
    const session = bookingSession();
    const { turns, endedBy } = await simulateUser(session, { turns: ["Hi", "A flight to Paris please", "Yes"] });
    expect(endedBy).toBe("user");
    expect(turns.map((turn) => turn.text)).toEqual(["Where would you like to go?", "FL123 costs $299. Shall I book it?", "Booked FL123."]);
    expect(session.turns).toHaveLength(3);
    expect(session).toMatchTrajectory(["search_flights", "book_flight"]);
  });

  test("respond(view) sees the agent's last reply; until stops at the goal", async () => {
    const session = bookingSession();
    const seen: (string | undefined)[] = [];
    const { turns, endedBy } = await simulateUser(session, {
      respond: ({ lastReply }) => {
        seen.push(lastReply);
        return lastReply?.includes("Shall I book") ? "yes" : "Paris, next Tuesday";
      },
      until: (turn) => turn.toolCalls.some((call) => call.tool === "book_flight"),
    });
    expect(endedBy).toBe("until");
    expect(seen).toEqual([undefined, "FL123 costs $299. Shall I book it?"]);
    expect(turns).toHaveLength(2);
  });

  test("a persona played by a mock model: it sees the agent's replies as the user side and the description as system", async () => {
    const personaSaw: MockModelRequest[] = [];
    const traveller = (request: MockModelRequest) => {
      personaSaw.push(request);
      const reply = request.lastUserMessage ?? "";
      if (reply.includes("Shall I book")) return "Yes, book it.";
      if (reply.includes("Booked")) return "";
      return "I need a flight to Paris.";
    };
    const session = bookingSession();
    const { turns, endedBy } = await simulateUser(session, {
      persona: { description: "A traveller who wants to fly to Paris.", model: traveller },
      maxTurns: 5,
    });
    expect(endedBy).toBe("user");
    expect(turns.map((turn) => turn.userMessage)).toEqual(["I need a flight to Paris.", "Yes, book it."]);
    expect(personaSaw[0]?.messages).toEqual([{ role: "system", text: "A traveller who wants to fly to Paris." }]);
    expect(personaSaw[1]?.messages.at(-1)).toEqual({ role: "user", text: "FL123 costs $299. Shall I book it?" });
    expect(session).toHaveCalledTool("book_flight", { input: { flight_id: "FL123" } });
  });

  test("a persona played by an AI SDK model, capped by maxTurns", async () => {
    const session = bookingSession();
    const { turns, endedBy } = await simulateUser(session, {
      persona: { description: "Someone undecided.", model: mockModel("Hmm, not sure.") },
      maxTurns: 2,
    });
    expect(endedBy).toBe("maxTurns");
    expect(turns.map((turn) => turn.userMessage)).toEqual(["Hmm, not sure.", "Hmm, not sure."]);
  });

  test("one way to drive the user, and a positive maxTurns", async () => {
    const session = bookingSession();
    await expect(simulateUser(session, {})).rejects.toThrow(/give one of `turns`/);
    await expect(simulateUser(session, { turns: ["a"], respond: () => "b" })).rejects.toThrow(/give one of/);
    await expect(simulateUser(session, { turns: ["a"], maxTurns: 0 })).rejects.toThrow(/positive integer/);
  });
});
