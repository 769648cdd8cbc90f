import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, StubConfigError } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer();
});
afterAll(() => llm.close());

const tools = { lookup: (_input: unknown) => "real" };
const rule = (match: unknown, id = "r") => [{ id, tool: "lookup", match, outcome: { response: 1 } }];

/** The StubConfigError `createSession` throws for `options`. */
function refusal(options: Record<string, unknown>): StubConfigError {
  try {
    createSession({ tools, agent: () => "", ...options });
  } catch (error) {
    if (error instanceof StubConfigError) return error;
    throw new Error(`expected a StubConfigError, got ${String(error)}`);
  }
  throw new Error("the session was accepted");
}

/** What a turn's request to `url` is answered with, among `http` mocks. */
async function answered(http: unknown[], url: string): Promise<string> {
  const session = createSession({ tools, http: http as never, agent: async () => String((await fetch(url)).status) });
  const turn = await session.send("go");
  session.close();
  return turn.text;
}

const fallback = { id: "fallback", url: "*", outcome: { status: 404, text: "none" } };

describe("no URL blocks the worker: HTTP mock URLs match in linear time", () => {
  test("a glob of many wildcards against a long path (exponential before: 3.9 s at 33 characters)", async () => {
    const mock = { id: "glob", url: "/*a*a*a*a*a*a*a*a*a*a*a*b", outcome: { status: 200, json: 1 } };
    expect(await answered([mock, fallback], `https://api.test/${"a".repeat(80)}`)).toBe("404");
    expect(await answered([mock, fallback], `https://api.test/${"a".repeat(80)}b`)).toBe("200");
  });

  test("a RegExp with a nested quantifier (26 s at 30 characters before)", async () => {
    const mock = { id: "nested", url: /^https:\/\/api\.test\/(a+)+$/, outcome: { status: 200, json: 1 } };
    expect(await answered([mock, fallback], `https://api.test/${"a".repeat(60)}!`)).toBe("404");
    expect(await answered([mock, fallback], `https://api.test/${"a".repeat(60)}`)).toBe("200");
  });

  test("adjacent parameters in one segment against 5,000 characters (over 30 s before)", async () => {
    const mock = { id: "params", url: "/:a:b:c:d:e:f:g:h:i:j:k:l:m:n/z", outcome: { status: 200, json: 1 } };
    expect(await answered([mock, fallback], `https://api.test/${"a".repeat(5000)}`)).toBe("404");
  });

  test("a RegExp URL is compared without the query string, as the README says", async () => {
    const mock = { id: "item", url: /\/items\/\d+$/, outcome: { status: 200, json: 1 } };
    expect(await answered([mock, fallback], "https://api.test/items/42?expand=1")).toBe("200");
  });

  test("a RegExp URL that cannot run in linear time is refused at setup, naming the mock and /url", () => {
    const error = refusal({ http: [{ id: "echo", url: /^https:\/\/(a+)\1$/, outcome: { json: 1 } }] });
    expect(error.message).toMatch(
      /^\[tooltrace\] HTTP mock "echo" at \/url: .* uses the backreference `\\1`, which cannot be matched in linear time/,
    );
  });
});

describe("setup is bounded, and its messages are short, whatever the input", () => {
  test.each([
    ["a 900 KB pattern", rule({ a: { pattern: "a".repeat(900_000) } }), "/match/a/pattern", "patterns are at most 1000"],
    [
      "oneOf of 3,000 patterns",
      rule({ a: { oneOf: Array.from({ length: 3000 }, (_, i) => ({ pattern: `^x${i}$` })) } }),
      "/match/a/oneOf/200/pattern",
      "more than 200 patterns",
    ],
    [
      "allOf of 3,000 patterns",
      rule({ a: { allOf: Array.from({ length: 3000 }, (_, i) => ({ pattern: `^x${i}` })) } }),
      "/match/a/allOf/200/pattern",
      "more than 200 patterns",
    ],
    [
      "anyOf of 6,000 consts",
      rule({ a: { anyOf: Array.from({ length: 6000 }, (_, i) => ({ const: `v${i}` })) } }),
      "/match/a/anyOf",
      "one holds at most 100",
    ],
    ["a 10 MB property name", rule({ ["k".repeat(10_000_000)]: { const: 1 } }), `/match/${"k".repeat(40)}…`, "names are at most 1024"],
  ])("%s is refused with the rule's id, the pointer and a message of a few lines", (_name, stubs, pointer, words) => {
    const error = refusal({ stubs });
    expect(error.ruleId).toBe("r");
    expect(error.pointer).toBe(pointer);
    expect(error.message).toContain(words);
    expect(error.message.length).toBeLessThan(500);
  });

  test("a limit names the rule by its id, not its position", () => {
    const error = refusal({ stubs: [{ id: "big-one", tool: "lookup", outcome: { response: "x".repeat(1_100_000) } }] });
    expect(error.message).toMatch(
      /^\[tooltrace\] stub rule "big-one" at \/outcome\/response: they hold more than about 1000000 characters/,
    );
  });

  test("a match nested 10,000 deep or cyclic, in a stub rule or an HTTP mock, is a StubConfigError with a pointer", () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) {
      const next = {};
      deep.properties = { a: next };
      deep = next;
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.properties = { a: cyclic };
    for (const match of [{ a: root }, { a: cyclic }]) {
      expect(refusal({ stubs: rule(match) }).pointer).toMatch(/^\/match\/a\/properties\/a/);
      const mockError = refusal({ http: [{ id: "m", url: "https://x.test/", match: { body: match }, outcome: { json: 1 } }] });
      expect(mockError.message).toMatch(/^\[tooltrace\] HTTP mock "m" at \/match\/body\/a\/properties\/a/);
    }
  });

  test("a Proxy rule, a Proxy stubs array and a getter that throws are StubConfigErrors, not their traps' errors", () => {
    const trapped = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("trap!");
        },
      },
    );
    expect(refusal({ stubs: [trapped] }).message).toContain("stub rule #0: reading this property threw: trap!");
    const array = new Proxy([], {
      get(target, key) {
        if (key === "length") throw new Error("no length");
        return Reflect.get(target, key);
      },
    });
    expect(refusal({ stubs: array }).message).toContain("reading the stub rules threw: no length");
  });

  test("1,000,000 HTTP mocks are refused at once", () => {
    const mocks = Array.from({ length: 1_000_000 }, (_, i) => ({ id: `m${i}`, url: "https://x.test/", outcome: { json: 1 } }));
    expect(refusal({ http: mocks }).message).toContain("1000000 HTTP mocks given; a session accepts at most 1000.");
  });
});

describe("HTTP mock outcomes that cannot be sent are refused at setup, with the mock and the pointer", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  test.each([
    ["a cyclic json", { json: cyclic }, "/outcome/json/self", "cyclic"],
    ["a BigInt in json", { json: { n: 1n } }, "/outcome/json/n", "a bigint, which is not JSON"],
    ["NaN as json (served as null before)", { json: Number.NaN }, "/outcome/json", "NaN, which JSON would send as null"],
    [
      "a getter that throws",
      {
        json: {
          get x() {
            throw new Error("getter!");
          },
        },
      },
      "/outcome/json/x",
      "reading this property threw: getter!",
    ],
    ["an invalid header name", { json: 1, headers: { "bad name": "x" } }, "/outcome/headers/bad name", "is not a header name"],
    ["a CRLF in a header value", { json: 1, headers: { "x-a": "a\r\nb" } }, "/outcome/headers/x-a", "a line break"],
  ])("%s", (_name, outcome, pointer, words) => {
    const error = refusal({ http: [{ id: "weather", url: "https://x.test/", outcome }] });
    expect(error.ruleId).toBe("weather");
    expect(error.pointer).toBe(pointer);
    expect(error.message).toContain(words);
  });
});

describe("hostile tool inputs are recorded, depth-limited, without throwing", () => {
  test("an input nested 200,000 deep and a Proxy whose traps throw", async () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 200_000; i++) {
      const next = {};
      deep.child = next;
      deep = next;
    }
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys for you");
        },
      },
    );
    const record = { lookup: (_input: unknown) => "real" };
    const session = createSession({ tools: record, agent: () => `${record.lookup(root)} ${record.lookup(hostile)}` });
    const turn = await session.send("go");
    expect(turn.text).toBe("real real");
    const report = session.close();
    const [json] = report.turnsJson();
    const calls = json?.toolCalls ?? [];
    expect(JSON.stringify(calls[0]?.input)).toContain("[Deeper than 256 levels]");
    expect(calls[1]?.input).toBe("[Threw: no keys for you]");
  });
});
