import { describe, expect, test } from "vitest";
import { createSession, StubConfigError } from "tooltrace";

/** A tool over an API, with its own retry on a 429 and a failed connection, as a user's client would have. */
function weatherTools() {
  const tools = { get_weather: async (_input: { city: string }): Promise<unknown> => ({ real: true }) };
  const withRetry = async (input: { city: string }) => {
    const seen: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        return { result: await tools.get_weather(input), seen };
      } catch (error) {
        const { status, headers } = error as { status?: number; headers?: Record<string, string> };
        seen.push(
          status !== undefined
            ? `${status} retry-after=${headers?.["retry-after"]}`
            : `${(error as Error).name}: ${(error as Error).message}`,
        );
      }
    }
    return { result: undefined, seen };
  };
  return { tools, withRetry };
}

describe("faults on a stub rule: a tool's API failing the way its client reports it", () => {
  test("a 429 and a failed connection before the rule's outcomes, which keep their place for the retry", async () => {
    const { tools, withRetry } = weatherTools();
    const session = createSession({
      agent: async () => JSON.stringify(await withRetry({ city: "Paris" })),
      tools,
      stubs: [
        {
          id: "paris",
          tool: "get_weather",
          outcomes: [{ response: { tempC: 21 } }, { response: { tempC: 22 } }],
          faults: [
            { fault: "rate_limit", calls: [1], retryAfter: 3 },
            { fault: "network_error", calls: [2] },
          ],
        },
      ],
    });
    const turn = await session.send("weather?");
    expect(JSON.parse(turn.text)).toEqual({ result: { tempC: 21 }, seen: ["429 retry-after=3", "TypeError: fetch failed"] });
    expect(turn.toolCalls.map((call) => [call.status, call.answeredBy])).toEqual([
      ["failed", { kind: "fault", fault: "rate_limit", where: 'stub rule "paris" faults[0]' }],
      ["failed", { kind: "fault", fault: "network_error", where: 'stub rule "paris" faults[1]' }],
      ["completed", { kind: "stub", ruleId: "paris", outcomeIndex: 0 }],
    ]);
    expect(turn).toHaveRecovered();
  });

  test("a slow rule answers after its first byte; a rule's faults are checked with the rule's pointer", async () => {
    const { tools } = weatherTools();
    const session = createSession({
      agent: async () => JSON.stringify(await tools.get_weather({ city: "Oslo" })),
      tools,
      stubs: [{ id: "slow", tool: "get_weather", outcome: { response: { tempC: 3 } }, faults: [{ fault: "slow", firstTokenMs: 60 }] }],
    });
    const turn = await session.send("weather?");
    expect(turn.text).toBe('{"tempC":3}');
    expect(turn.toolCalls[0]?.durationMs).toBeGreaterThanOrEqual(55);
    const bad = () =>
      createSession({
        agent: () => "",
        tools,
        stubs: [{ id: "x", tool: "get_weather", outcome: { response: 1 }, faults: [{ fault: "429" as never }] }],
      });
    expect(bad).toThrow(StubConfigError);
    expect(bad).toThrow(/stub rule "x" at \/faults\/0\/fault: unknown fault "429"/);
  });
});
