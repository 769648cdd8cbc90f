import { describe, expect, test } from "vitest";
import { createSession, StubConfigError, type HttpMock } from "tooltrace";

const weather: HttpMock = {
  id: "weather",
  url: "https://api.weather.test/v1/current",
  outcomes: [{ json: { tempC: 21 } }, { json: { tempC: 22 } }],
};

/** A tool's HTTP client with its own retry on 429 and 5xx, as a user's would have. */
async function fetchWithRetry(url: string, attempts = 3): Promise<{ status: number; body: unknown }> {
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      const response = await fetch(url);
      if (response.status === 429 || response.status >= 500) {
        last = new Error(`HTTP ${response.status} (retry-after ${response.headers.get("retry-after")})`);
        continue;
      }
      return { status: response.status, body: await response.json() };
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

describe("faults on an HTTP mock", () => {
  test("a 429 and a dropped connection before the mock's outcomes, which keep their place for the retry", async () => {
    const session = createSession({
      agent: async () => JSON.stringify((await fetchWithRetry("https://api.weather.test/v1/current")).body),
      http: [
        {
          ...weather,
          faults: [
            { fault: "rate_limit", calls: [1], retryAfter: 2 },
            { fault: "stream_cut", calls: [2] },
          ],
        },
      ],
    });
    const turn = await session.send("weather?");
    expect(turn.text).toBe('{"tempC":21}');
    expect(turn.httpCalls.map((call) => [call.statusCode, call.answeredBy])).toEqual([
      [429, { kind: "fault", fault: "rate_limit", where: 'HTTP mock "weather" faults[0]' }],
      [200, { kind: "fault", fault: "stream_cut", where: 'HTTP mock "weather" faults[1]' }],
      [200, { kind: "stub", ruleId: "weather", outcomeIndex: 0 }],
    ]);
    expect(turn).toHaveRecovered();
    expect(session.unusedRuleIds()).toEqual([]);
  });

  test("a network error on every call: fetch rejects, the agent gives up and says so", async () => {
    const session = createSession({
      agent: async () =>
        fetchWithRetry("https://api.weather.test/v1/current").then(
          () => "weather",
          (error: Error) => `no weather: ${error.message}`,
        ),
      http: [{ ...weather, faults: [{ fault: "network_error" }] }],
    });
    const turn = await session.send("weather?");
    expect(turn.text).toBe("no weather: fetch failed");
    expect(turn.httpCalls.map((call) => call.status)).toEqual(["failed", "failed", "failed"]);
    expect(turn).toHaveGivenUpCleanly();
    expect(() => expect(turn).toHaveRecovered()).toThrow(
      /Injected faults \(3\):\n- #1 GET https:\/\/api.weather.test\/v1\/current: failed \[fault network_error/,
    );
  });

  test("a malformed body and a 500 from the seed: the same seed, the same answers", async () => {
    const run = async (seed: number) => {
      const session = createSession({
        agent: async () => {
          const seen: string[] = [];
          for (let i = 0; i < 10; i += 1) {
            const response = await fetch("https://api.weather.test/v1/current");
            seen.push(
              await response.json().then(
                () => String(response.status),
                () => "malformed",
              ),
            );
          }
          return seen.join(" ");
        },
        seed,
        http: [
          {
            ...weather,
            faults: [
              { fault: "malformed", probability: 0.3 },
              { fault: "server_error", probability: 0.3 },
            ],
          },
        ],
      });
      return (await session.send("go")).text;
    };
    const first = await run(11);
    expect(await run(11)).toBe(first);
    expect(first).toMatch(/malformed|500/);
  });

  test("a slow answer waits before the outcome, which is still the first", async () => {
    const session = createSession({
      agent: async () => JSON.stringify(await (await fetch("https://api.weather.test/v1/current")).json()),
      http: [{ ...weather, faults: [{ fault: "slow", firstTokenMs: 80 }] }],
    });
    const turn = await session.send("weather?");
    expect(turn.text).toBe('{"tempC":21}');
    expect(turn.httpCalls[0]?.durationMs).toBeGreaterThanOrEqual(70);
  });

  test("a fault in an HTTP mock is refused at setup with its pointer", () => {
    expect(() => createSession({ agent: () => "", http: [{ ...weather, faults: [{ fault: "timeout" as never }] }] })).toThrow(
      StubConfigError,
    );
    expect(() => createSession({ agent: () => "", http: [{ ...weather, faults: [{ fault: "timeout" as never }] }] })).toThrow(
      /HTTP mock "weather" at \/faults\/0\/fault: unknown fault "timeout"/,
    );
  });
});
