import { get } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, StubConfigError, useHttpMocks, type HttpMock } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";

let server: LlmServer;
beforeAll(() => {
  server = startLlmServer();
});
afterAll(() => server.close());

/** A weather tool as apps write it: a real HTTP client against the weather API. */
const weatherTools = {
  current: async ({ city }: { city: string }) => {
    const response = await fetch(`https://api.weather.test/v1/current?city=${encodeURIComponent(city)}`, {
      headers: { authorization: "Bearer real-key" },
    });
    if (!response.ok) return { error: `weather API answered ${response.status}` };
    return (await response.json()) as unknown;
  },
  report: async ({ city, note }: { city: string; note: string }) => {
    const response = await fetch("https://api.weather.test/v1/reports", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ city, note }),
    });
    return { status: response.status };
  },
};

const paris: HttpMock = {
  id: "paris",
  method: "GET",
  url: "https://api.weather.test/v1/current",
  match: { query: { properties: { city: { const: "Paris" } } } },
  outcome: { json: { tempC: 21 } },
};

describe("declarative HTTP mocks, answered through the session's chain", () => {
  test("a mock answers the tool's request; the exchange is traced, linked to the tool call, and matchable", async () => {
    const session = createSession({
      tools: weatherTools,
      http: [paris],
      agent: async () => JSON.stringify(await weatherTools.current({ city: "Paris" })),
    });
    const turn = await session.send("Weather in Paris?");
    expect(turn.text).toBe('{"tempC":21}');
    const [call] = turn.httpCalls;
    expect(call).toMatchObject({
      method: "GET",
      statusCode: 200,
      answeredBy: { kind: "stub", ruleId: "paris", outcomeIndex: 0 },
      parentSeq: turn.toolCalls[0]?.seq,
    });
    expect(turn).toHaveRequested("https://api.weather.test/v1/current", { method: "GET", count: 1 });
    expect(turn).toHaveRequested("/v1/current");
    expect(turn).toHaveRequested(/city=Paris/);
    expect(turn).not.toHaveRequested("https://api.weather.test/v1/forecast");
    expect(() => expect(turn).toHaveRequested("https://api.weather.test/v1/current", { method: "POST" })).toThrow(
      /Expected: POST request to https:\/\/api\.weather\.test\/v1\/current, at least once[\s\S]*1\. GET https:\/\/api\.weather\.test\/v1\/current\?city=Paris → 200 \[HTTP mock "paris" #1\]/,
    );
  });

  test("outcomes are answered in turn, the last repeating; a status and a network error reach the client as they would", async () => {
    const flaky: HttpMock = {
      id: "flaky",
      url: "https://api.weather.test/v1/current",
      outcomes: [{ status: 503, text: "busy" }, { networkError: "connection reset" }, { json: { tempC: 5 } }],
    };
    const seen: unknown[] = [];
    const session = createSession({
      tools: weatherTools,
      http: [flaky],
      agent: async () => {
        for (let i = 0; i < 4; i++)
          seen.push(await weatherTools.current({ city: "Oslo" }).catch((error: Error) => `${error.name}: ${error.message}`));
        return "done";
      },
    });
    const turn = await session.send("Weather in Oslo?");
    // The client's own network-error text: "Failed to fetch" under msw 2, undici's "fetch failed" under msw 3.
    expect(seen).toEqual([
      { error: "weather API answered 503" },
      expect.stringMatching(/^TypeError: (Failed to fetch|fetch failed)$/),
      { tempC: 5 },
      { tempC: 5 },
    ]);
    expect(turn.httpCalls.map((call) => [call.status, call.statusCode, call.answeredBy])).toEqual([
      ["completed", 503, { kind: "stub", ruleId: "flaky", outcomeIndex: 0 }],
      ["failed", undefined, { kind: "stub", ruleId: "flaky", outcomeIndex: 1 }],
      ["completed", 200, { kind: "stub", ruleId: "flaky", outcomeIndex: 2 }],
      ["completed", 200, { kind: "stub", ruleId: "flaky", outcomeIndex: 2 }],
    ]);
    expect(turn.httpCalls[1]?.error?.message).toContain("connection reset");
  });

  test("match on the JSON body and on headers; the trace keeps the body; a path pattern with parameters on any host", async () => {
    const mocks: HttpMock[] = [
      {
        id: "reports",
        method: "POST",
        url: "/v1/:collection",
        match: { body: { properties: { city: { const: "Paris" } } }, headers: { properties: { "content-type": { pattern: "json" } } } },
        outcome: { status: 201, json: { id: 7 } },
      },
    ];
    const session = createSession({
      tools: weatherTools,
      http: mocks,
      agent: async () => JSON.stringify(await weatherTools.report({ city: "Paris", note: "sunny" })),
    });
    const turn = await session.send("Report it.");
    expect(turn.text).toBe('{"status":201}');
    expect(turn.httpCalls[0]?.requestBody).toEqual({ city: "Paris", note: "sunny" });
    expect(turn).toHaveRequested("https://api.weather.test/v1/reports", { method: "post", body: { city: "Paris" } });
    expect(turn).not.toHaveRequested("https://api.weather.test/v1/reports", { body: { city: "Rome" } });
  });

  test("node:http requests are answered too", async () => {
    const session = createSession({
      tools: {},
      http: [{ id: "status", url: "http://status.weather.test/health", outcome: { text: "ok" } }],
      agent: () =>
        new Promise<string>((resolve, reject) => {
          get("http://status.weather.test/health", (response) => {
            let body = "";
            response.on("data", (chunk: Buffer) => (body += chunk.toString()));
            response.on("end", () => resolve(`${response.statusCode} ${body}`));
          }).on("error", reject);
        }),
    });
    const turn = await session.send("Is it up?");
    expect(turn.text).toBe("200 ok");
    expect(turn).toHaveRequested("http://status.weather.test/health", { count: 1 });
  });

  test("the HTTP a strict session's agent makes itself: a mock answers, anything else is refused and reported", async () => {
    const session = createSession({
      tools: {},
      strict: true,
      http: [paris],
      agent: async () => {
        const ok = (await (await fetch("https://api.weather.test/v1/current?city=Paris")).json()) as unknown;
        const refused = await fetch("https://api.weather.test/v1/current?city=Rome").then(
          () => "went out",
          () => "swallowed",
        );
        return JSON.stringify([ok, refused]);
      },
    });
    const turn = await session.send("Weather?");
    expect(turn.text).toBe('[{"tempC":21},"swallowed"]');
    expect(turn.httpCalls.map((call) => [call.status, call.answeredBy?.kind])).toEqual([
      ["completed", "stub"],
      ["rejected", "strict"],
    ]);
    expect(session.takeViolations()).toEqual([
      expect.stringMatching(/strict mode: GET https:\/\/api\.weather\.test\/v1\/current\?city=Rome would have gone out to the network/),
    ]);
  });

  test("a mock nothing used is reported like an unused stub rule", async () => {
    const session = createSession({
      tools: {},
      unusedRules: "ignore",
      http: [paris, { id: "never", url: "https://nowhere.test/", outcome: { text: "" } }],
      agent: async () => (await fetch("https://api.weather.test/v1/current?city=Paris")).status.toString(),
    });
    await session.send("go");
    expect(session.unusedRuleIds()).toEqual(["never"]);
  });

  test("a bad mock is refused at createSession, naming the mock and the JSON pointer, as stub rules are", () => {
    const agent = () => "";
    const refused = (http: unknown) => {
      try {
        createSession({ tools: {}, agent, http: http as HttpMock[] });
      } catch (error) {
        return error instanceof StubConfigError ? error.message : `not a StubConfigError: ${String(error)}`;
      }
      return "accepted";
    };
    expect(
      refused([
        { id: "a", url: "https://x.test/", match: { query: { properties: { city: { format: "email" } } } }, outcome: { json: {} } },
      ]),
    ).toMatch(/HTTP mock "a" at \/match\/query\/properties\/city\/format: .*format/);
    expect(refused([{ id: "b", url: "https://x.test/", outcome: { status: 700 } }])).toContain(
      'HTTP mock "b" at /outcome/status: `status` must be an integer from 200 to 599',
    );
    expect(refused([{ id: "c", url: "https://x.test/", outcome: { body: "x" } }])).toContain('"c" at /outcome/body: unknown field `body`');
    expect(refused([{ id: "c", url: "https://x.test/", outcome: { "a/b": "x" } }])).toContain('"c" at /outcome/a~1b: unknown field');
    expect(refused([{ id: "c", url: "https://x.test/", "x~y": 1, outcome: { json: {} } }])).toContain('"c" at /x~0y: unknown field');
    expect(
      refused([
        { id: "d", url: "https://x.test/", outcome: { json: {} } },
        { id: "d", url: "https://y.test/", outcome: { json: {} } },
      ]),
    ).toContain("duplicate HTTP mock id");
    expect(refused([{ id: "e", url: "", outcome: { json: {} } }])).toContain('"e" at /url');
    expect(refused([{ id: "f", url: "https://x.test/", outcome: { status: 204, json: {} } }])).toContain(
      'HTTP mock "f" at /outcome/status: a 204 response has no body',
    );
  });

  test("the run's shared mocks answer every session, and only a session's own unused mocks are reported", async () => {
    useHttpMocks([{ id: "shared-health", url: "https://status.weather.test/health", outcome: { text: "ok" } }]);
    try {
      const session = createSession({
        tools: {},
        unusedRules: "ignore",
        http: [{ id: "own", url: "https://nowhere.test/", outcome: { text: "" } }],
        // An unmocked request that may go out (it fails: nothing answers that name).
        allowHosts: ["api.weather.test"],
        agent: async () => (await fetch("https://api.weather.test/x")).status.toString(),
      });
      await session.send("go");
      expect(session.unusedRuleIds()).toEqual(["own"]);
      const other = createSession({ tools: {}, agent: async () => (await fetch("https://status.weather.test/health")).text() });
      expect((await other.send("go")).text).toBe("ok");
    } finally {
      useHttpMocks([]);
    }
  });
});
