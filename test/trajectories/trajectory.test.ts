import { describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { failure } from "../fixtures/failure.js";
import { flightAgent, flightTools } from "../fixtures/flight-agent.js";

const stubs = [
  {
    id: "paris",
    tool: "search_flights",
    match: { to: { const: "Paris" } },
    outcome: {
      response: [
        { id: "FL123", price: 299 },
        { id: "FL9", price: 410 },
      ],
    },
  },
  { id: "book", tool: "book_flight", outcome: { response: { confirmation: "CONF-789", status: "confirmed" } } },
];

async function bookingTurn() {
  const { tools } = flightTools();
  const session = createSession({ agent: flightAgent(tools), tools, stubs });
  const turn = await session.send("Book the cheapest flight to Paris for next Tuesday.");
  return { session, turn };
}

describe("toMatchTrajectory with a real AI SDK agent", () => {
  test("strict: the same calls in the same order, inputs exact by default", async () => {
    const { turn } = await bookingTurn();
    expect(turn).toMatchTrajectory(["search_flights", "book_flight"]);
    expect(turn).toMatchTrajectory([
      { tool: "search_flights", input: { to: "Paris", date: "next Tuesday" } },
      { tool: "book_flight", input: { flight_id: "FL123" }, output: { confirmation: "CONF-789", status: "confirmed" } },
    ]);
    expect(turn).not.toMatchTrajectory(["book_flight", "search_flights"]);
    expect(turn).not.toMatchTrajectory(["search_flights"]);
    expect(turn).not.toMatchTrajectory([{ tool: "search_flights", input: { to: "Paris" } }, "book_flight"]);
  });

  test("strict failure: expected beside recorded, aligned, with what differs at a JSON pointer", async () => {
    const { turn } = await bookingTurn();
    const message = failure(() =>
      expect(turn).toMatchTrajectory([
        { tool: "search_flights", input: { to: "Rome", date: "next Tuesday" } },
        "send_email",
        "book_flight",
      ]),
    );
    expect(message).toContain('Expected: a trajectory of 3 steps (order "strict")');
    expect(message).toContain("Received: 1 missing, 1 different");
    expect(message).toMatch(
      /≠ 1\. search_flights \{ to: "Rome", date: "next Tuesday" \}\s+1\. search_flights\(\{"to":"Paris","date":"next Tuesday"\}\)/,
    );
    expect(message).toContain('/input/to: "Rome" → "Paris"');
    expect(message).toMatch(/- 2\. send_email\s+\(missing\)/);
    expect(message).toMatch(/✓ 3\. book_flight\s+2\. book_flight/);
  });

  test("strict failure shows a swapped pair as out of order", async () => {
    const { turn } = await bookingTurn();
    const message = failure(() => expect(turn).toMatchTrajectory(["book_flight", "search_flights"]));
    expect(message).toContain("1 out of order");
    expect(message).toMatch(/↕ .*\(out of order\)/);
  });

  test("unordered: the same calls in any order", async () => {
    const { turn } = await bookingTurn();
    expect(turn).toMatchTrajectory(["book_flight", "search_flights"], { order: "unordered" });
    expect(turn).not.toMatchTrajectory(["book_flight"], { order: "unordered" });
    const message = failure(() => expect(turn).toMatchTrajectory(["book_flight", "search_flights", "send_email"], { order: "unordered" }));
    expect(message).toContain("Received: 1 missing");
  });

  test("superset: every expected call, others allowed; subset: nothing unexpected", async () => {
    const { turn } = await bookingTurn();
    expect(turn).toMatchTrajectory(["book_flight"], { order: "superset" });
    expect(turn).not.toMatchTrajectory(["send_email"], { order: "superset" });
    expect(turn).toMatchTrajectory(["search_flights", "book_flight", "send_email"], { order: "subset" });
    expect(turn).not.toMatchTrajectory(["search_flights"], { order: "subset" });
    expect(failure(() => expect(turn).toMatchTrajectory(["search_flights"], { order: "subset" }))).toMatch(
      /\+\s+2\. book_flight.*\(extra\)/,
    );
  });

  test("argument modes per tool, named as agentevals names them: exact, superset, subset, ignore, a function", async () => {
    const { turn } = await bookingTurn();
    const partial = [
      { tool: "search_flights", input: { to: "Paris" } },
      { tool: "book_flight", input: { flight_id: "nope" } },
    ];
    expect(turn).not.toMatchTrajectory(partial);
    expect(turn).toMatchTrajectory(partial, { args: { search_flights: "superset", book_flight: "ignore" } });
    expect(turn).toMatchTrajectory(partial, {
      args: { "*": "superset", book_flight: (actual) => (actual as { flight_id: string }).flight_id.startsWith("FL") },
    });
    expect(turn).not.toMatchTrajectory(partial, { args: "superset" });
    expect(turn).toMatchTrajectory([{ tool: "search_flights", input: { to: expect.any(String), date: /Tue/ } }, "book_flight"]);
    // subset: the actual arguments hold nothing beyond the expected ones.
    const wider = [{ tool: "search_flights", input: { to: "Paris", date: "next Tuesday", seats: 2 } }, "book_flight"];
    expect(turn).toMatchTrajectory(wider, { args: "subset" });
    expect(turn).not.toMatchTrajectory(wider, { args: "superset" });
    expect(turn).not.toMatchTrajectory(partial, { args: "subset" });
    // Under superset the extra `date` the agent sent is no difference; only what is missing or different shows.
    const message = failure(() =>
      expect(turn).toMatchTrajectory([{ tool: "search_flights", input: { to: "Rome" } }, "book_flight"], { args: "superset" }),
    );
    expect(message).toContain('/input/to: "Rome" → "Paris"');
    expect(message).not.toContain("/input/date");
  });

  test("model calls and HTTP take part when listed", async () => {
    const { turn } = await bookingTurn();
    expect(turn).toMatchTrajectory([
      { model: true, toolCalls: ["search_flights"] },
      "search_flights",
      { model: true },
      "book_flight",
      { model: true, text: /Booked/ },
    ]);
    expect(turn).not.toMatchTrajectory([{ model: true }, "search_flights", "book_flight"]);
  });

  test("a whole session, across turns", async () => {
    const { session } = await bookingTurn();
    await session.send("And book it again.");
    expect(session).toMatchTrajectory(["search_flights", "book_flight", "search_flights", "book_flight"]);
    expect(session).toMatchTrajectory(["book_flight", "book_flight"], { order: "superset" });
  });

  test("a RegExp or an asymmetric matcher that fails prints as itself", async () => {
    const { turn } = await bookingTurn();
    const message = failure(() =>
      expect(turn).toMatchTrajectory([{ model: /gpt/ }, "search_flights", { model: true }, "book_flight", { model: true }]),
    );
    expect(message).toContain('/model: /gpt/ → "mock-model"');
    const any = failure(() =>
      expect(turn).toMatchTrajectory([{ tool: "search_flights", input: { to: expect.any(Number), date: "next Tuesday" } }, "book_flight"]),
    );
    expect(any).toContain('/input/to: Any<Number> → "Paris"');
  });

  test("superset counts only missing calls, subset only extra ones", async () => {
    const { turn } = await bookingTurn();
    expect(failure(() => expect(turn).toMatchTrajectory(["send_email"], { order: "superset" }))).toContain("Received: 1 missing\n");
    expect(failure(() => expect(turn).toMatchTrajectory(["search_flights", "send_email"], { order: "subset" }))).toContain(
      "Received: 1 extra\n",
    );
  });

  test("a promise (a missing await) or a list of calls is refused, with or without .not", async () => {
    const { session } = await bookingTurn();
    const pending = session.send("Again.");
    expect(() => expect(pending).not.toMatchTrajectory(["book_flight"])).toThrow(/received a promise[\s\S]*await it/);
    const turn = await pending;
    expect(() => expect(turn.toolCalls).not.toMatchTrajectory(["book_flight"])).toThrow(/not its list of tool calls/);
  });

  test("a typo in a tool name throws, naming the close one", async () => {
    const { turn } = await bookingTurn();
    expect(() => expect(turn).toMatchTrajectory(["serch_flights"])).toThrow(/did you mean "search_flights"/);
    expect(() => expect(turn).toMatchTrajectory(["search_flights"], { order: "loose" as never })).toThrow(/`order` is one of/);
  });
});
