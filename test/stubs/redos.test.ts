import { describe, expect, test } from "vitest";
import { createRuleSet, createSession, StubConfigError } from "tooltrace";

const tools = () => ({ search: (input: { query: string }) => ({ real: input.query }) });
const rule = (pattern: string) => [{ id: "r", tool: "search", match: { query: { pattern } }, outcome: { response: "stub" } }];

/** One call through a whole session; returns what the agent saw. */
async function oneCall(pattern: string, query: string) {
  const t = tools();
  const session = createSession({
    tools: t,
    stubs: rule(pattern),
    unusedRules: "ignore",
    agent: () => JSON.stringify(t.search({ query })),
  });
  return (await session.send("go")).text;
}

describe("no input blocks a worker", () => {
  const hostile = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa!";
  test.each([
    // [pattern, input, whether it matches]
    ["(a+)+$", hostile, false],
    ["(a|a)*$", hostile, true],
    ["(\\w+\\s?)+$", hostile, false],
    ["\\s*\\s*$", `${" ".repeat(29)}!`, true],
    ["(a|a){25}$", hostile, false],
  ] as const)(
    "%s against a hostile 30-character input answers at once (it blocked the worker for 55 s)",
    async (pattern, query, matches) => {
      // With backtracking this call never returns within the test's timeout; linear matching takes microseconds.
      const text = await oneCall(pattern, query);
      expect(text).toBe(matches ? '"stub"' : JSON.stringify({ real: query }));
    },
  );

  test("the hostile patterns still match what they describe", async () => {
    expect(await oneCall("(a+)+$", "baaaa")).toBe('"stub"');
    expect(await oneCall("\\s*\\s*$", "anything")).toBe('"stub"');
  });

  test("a 100 KB input is linear too", async () => {
    const query = `${"a".repeat(100_000)}!`;
    expect(await oneCall("(\\w+\\s?)+$", query)).toBe(JSON.stringify({ real: query }));
  });
});

describe("patterns keep JavaScript's meaning on either engine", () => {
  const matches = (pattern: string, input: string) => createRuleSet(rule(pattern)).select("search", { query: input }) !== undefined;

  test.each([
    // [pattern, input, expected]: \s and . as JavaScript defines them, even where RE2's differ
    ["^\\s$", "\u000b", true],
    ["^\\s$", "\u00a0", true],
    ["(x+)+\\s$", "xx\u00a0", true],
    ["(x+)+a.b$", "xxa\rb", false],
    ["(x+)+a.b$", "xxa-b", true],
    ["^[\\s\\d]+$", "1 2\u3000", true],
    ["(?:x+)+[^\\s]$", "xxy", true],
    ["\\p{Lu}", "é", false],
    ["(x+)+\\p{Lu}", "xxÉ", true],
    ["(?<year>\\d{4})-(?<month>\\d{2})", "2026-11", true],
    ["\\u{1F600}", "smile 😀", true],
    ["^\\u0041", "A", true],
    ["\\b(?i:milk)\\b", "MILK", true],
    ["(?s:a.b)", "a\nb", true],
    ["a.b", "a\nb", false],
  ] as const)("%j on %j is %s", (pattern, input, expected) => {
    expect(matches(pattern, input)).toBe(expected);
  });
});

describe("what cannot run in linear time is refused at createSession, with the rule and pointer", () => {
  test.each([
    ["(?=.*milk)(?=.*eggs)", /uses the lookahead `\(\?=\.\*milk\)`[\s\S]*Fix: list each required part as its own constraint in `allOf/],
    ["^(?!draft)", /uses the negative lookahead[\s\S]*Fix: express the exclusion with `not: \{ pattern \}`/],
    ["(a)\\1", /uses the backreference `\\1`/],
    ["(?<=a)b", /uses the lookbehind/],
    ["(?:\\p{L}|\\p{N}|_){1,1000}$", /too large to match in linear time \(RE2 program size \d+, at most 1000\)/],
    ["a{2000}", /cannot be matched in linear time/],
  ])("%s", (pattern, message) => {
    const make = () => createSession({ agent: () => "", tools: tools(), stubs: rule(pattern) });
    expect(make).toThrow(StubConfigError);
    expect(make).toThrow(/stub rule "r" at \/match\/query\/pattern: /);
    expect(make).toThrow(message);
  });

  test("a syntax error still says so", () => {
    expect(() => createSession({ agent: () => "", tools: tools(), stubs: rule("(unclosed") })).toThrow(
      /invalid regular expression "\(unclosed"/,
    );
  });
});
