import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSession, STUB_LIMITS, StubConfigError } from "tooltrace";
import { createLlmAnswer } from "tooltrace/wire";
import { MAX_TIMER_MS } from "../../src/base/timer-limit.js";
import { knownSecrets, rememberSecret } from "../../src/secrets/known-secrets.js";
import { MAX_RECORDED_REQUESTS, RecordedStore } from "../../src/server/recorded-store.js";
import { MAX_TOKEN_LENGTH, verifyToken } from "../../src/server/token.js";
import { MAX_URL_PATTERN_LENGTH } from "../../src/http-mocks/url-pattern.js";

// Every bound docs/guarantees.md lists is held here or by the test its row names: wherever input arrives
// (a rule, a mock, a request, a token, a timer), something stops it growing without end.
// A compatibility run's copy of the suite has no docs/: the lists are checked where they are.
const guaranteesFile = join(import.meta.dirname, "../../docs/guarantees.md");
const hasDocs = existsSync(guaranteesFile);
const guarantees = hasDocs ? readFileSync(guaranteesFile, "utf8") : "";
const tools = { lookup: (_input: unknown) => "real" };

/** The StubConfigError `createSession` throws for `options`, or a failure saying it was accepted. */
function refusal(options: Record<string, unknown>): StubConfigError {
  try {
    createSession({ tools, agent: () => "", ...options }).close();
  } catch (error) {
    if (error instanceof StubConfigError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("the bounds of a session's rules, one past each refused with its pointer", () => {
  const rule = (match: unknown) => [{ id: "r", tool: "lookup", match, outcome: { response: 1 } }];
  const cases: [keyof typeof STUB_LIMITS, () => Record<string, unknown>, RegExp][] = [
    [
      "rules",
      () => ({
        stubs: Array.from({ length: STUB_LIMITS.rules + 1 }, (_, i) => ({ id: `r${i}`, tool: "lookup", outcome: { response: 1 } })),
      }),
      /100/,
    ],
    [
      "mocks",
      () => ({ http: Array.from({ length: STUB_LIMITS.mocks + 1 }, (_, i) => ({ id: `m${i}`, url: `/x${i}`, outcome: { status: 200 } })) }),
      /1000|1,000/,
    ],
    ["keyLength", () => ({ stubs: rule({ ["k".repeat(STUB_LIMITS.keyLength + 1)]: { const: 1 } }) }), /1024|1,024/],
    ["patternLength", () => ({ stubs: rule({ q: { pattern: "a".repeat(STUB_LIMITS.patternLength + 1) } }) }), /\/match\/q\/pattern/],
    [
      "enumValues",
      () => ({ stubs: rule({ q: { enum: Array.from({ length: STUB_LIMITS.enumValues + 1 }, (_, i) => i) } }) }),
      /\/match\/q\/enum/,
    ],
    [
      "branches",
      () => ({ stubs: rule({ q: { anyOf: Array.from({ length: STUB_LIMITS.branches + 1 }, (_, i) => ({ const: i })) } }) }),
      /\/match\/q\/anyOf/,
    ],
  ];
  for (const [limit, options, said] of cases)
    test(`${limit}: ${STUB_LIMITS[limit]}`, () => {
      expect(refusal(options()).message).toMatch(said);
      if (hasDocs) expect(guarantees).toContain(`\`${limit}\``);
    });
});

describe("bounds on what arrives while tests run", () => {
  test(`an HTTP mock's URL pattern: ${MAX_URL_PATTERN_LENGTH} characters`, () => {
    const error = refusal({ http: [{ id: "long", url: `/${"a".repeat(MAX_URL_PATTERN_LENGTH)}`, outcome: { status: 200 } }] });
    expect(error.message).toContain("/url");
  });

  test("an HTTP mock's delayMs and a turn's timeoutMs: within what Node's timers take", async () => {
    expect(refusal({ http: [{ id: "slow", url: "/x", outcome: { status: 200, delayMs: 60_001 } }] }).message).toContain("delayMs");
    const session = createSession({ tools, agent: () => "" });
    await expect(session.send("go", { timeoutMs: MAX_TIMER_MS + 1 })).rejects.toThrow(/timeoutMs: 2147483648/);
    expect((await session.send("go", { timeoutMs: MAX_TIMER_MS })).status).toBe("completed");
    session.close();
  });

  test(`the wire mock's journal: the last 1,000 model calls`, async () => {
    const llm = createLlmAnswer({ respond: "ok" });
    const ask = () =>
      llm.answer(
        new Request("https://api.openai.com/v1/chat/completions", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
        }),
      );
    for (let i = 0; i < 1_010; i++) await ask();
    expect(llm.calls.length).toBe(1_000);
  });

  test(`a deployed server keeps the calls of its last ${MAX_RECORDED_REQUESTS} requests, and reads a token of at most ${MAX_TOKEN_LENGTH} characters`, () => {
    const closed: number[] = [];
    const store = new RecordedStore();
    const request = (n: number) => ({ close: () => closed.push(n) }) as never;
    for (let n = 0; n <= MAX_RECORDED_REQUESTS; n++) store.add(`t${n}`, request(n), 0);
    expect(store.get("t0", 0)).toBeUndefined();
    expect(store.get(`t${MAX_RECORDED_REQUESTS}`, 0)).toBeDefined();
    expect(closed).toEqual([0]);
    expect(verifyToken("secret", "x".repeat(MAX_TOKEN_LENGTH + 1), 0)).toEqual({ refused: "malformed" });
  });

  test("the secrets a run remembers from its requests' headers: the newest 1,000", () => {
    const before = knownSecrets([]).length;
    for (let i = 0; i < 1_100; i++) rememberSecret(`remembered-${i}-value`);
    const now = knownSecrets([]);
    expect(now.length).toBeLessThanOrEqual(Math.max(before, 1_000));
    expect(now).toContain("remembered-1099-value");
    expect(now).not.toContain("remembered-0-value");
  });

  test.skipIf(!hasDocs)("docs/guarantees.md lists every bound above, with the test that holds it", () => {
    for (const value of [
      "2048",
      "60 s",
      "2^31",
      "1,000 model calls",
      `${MAX_RECORDED_REQUESTS.toLocaleString("en")}`,
      "12,000",
      "4 MiB",
      "100 requests",
    ])
      expect(guarantees, value).toContain(value);
  });
});
