import { describe, expect, test } from "vitest";
import { createSession, StubConfigError, type ToolStub } from "tooltrace";
import { createTaskService } from "../fixtures/tasks.js";

function setup(stubs: unknown) {
  const { tools } = createTaskService();
  return () => createSession({ agent: () => "unused", tools, stubs: stubs as ToolStub[] });
}

function setupError(stubs: unknown): StubConfigError {
  try {
    setup(stubs)();
  } catch (error) {
    expect(error).toBeInstanceOf(StubConfigError);
    return error as StubConfigError;
  }
  throw new Error("expected createSession to throw");
}

const rule = (match: unknown) => [{ id: "r", tool: "search_tasks", match, outcome: { response: [] } }];

describe("refused schema keywords name the rule and the JSON pointer", () => {
  test.each([
    ["patternProperties", { filter: { patternProperties: { "^s": { type: "string" } } } }, "/match/filter/patternProperties"],
    ["$ref", { filter: { $ref: "#/defs/x" } }, "/match/filter/$ref"],
    ["$defs", { filter: { $defs: {} } }, "/match/filter/$defs"],
    ["$dynamicRef", { filter: { $dynamicRef: "#x" } }, "/match/filter/$dynamicRef"],
    ["format", { query: { type: "string", format: "email" } }, "/match/query/format"],
    ["multipleOf", { limit: { multipleOf: 2 } }, "/match/limit/multipleOf"],
    ["minContains", { tags: { contains: { const: "a" }, minContains: 2 } }, "/match/tags/minContains"],
    ["maxContains", { tags: { contains: { const: "a" }, maxContains: 2 } }, "/match/tags/maxContains"],
    ["uniqueItems", { tags: { uniqueItems: true } }, "/match/tags/uniqueItems"],
    ["dependencies", { filter: { dependencies: { a: ["b"] } } }, "/match/filter/dependencies"],
    ["dependentRequired", { filter: { dependentRequired: { a: ["b"] } } }, "/match/filter/dependentRequired"],
    ["dependentSchemas", { filter: { dependentSchemas: { a: {} } } }, "/match/filter/dependentSchemas"],
    ["object in const", { filter: { const: { status: "open" } } }, "/match/filter/const"],
    ["array in const", { tags: { const: ["a"] } }, "/match/tags/const"],
    ["object in enum", { filter: { enum: ["x", { status: "open" }] } }, "/match/filter/enum/1"],
    [
      "nested refused keyword",
      { filter: { anyOf: [{ properties: { status: { format: "date" } } }] } },
      "/match/filter/anyOf/0/properties/status/format",
    ],
    ["inherited name in properties", { filter: { properties: { constructor: { const: 1 } } } }, "/match/filter/properties/constructor"],
    ["inherited name in required", { filter: { required: ["toString"] } }, "/match/filter/required/0"],
    ["inherited name at the top", { toString: { const: "x" } }, "/match/toString"],
    ["unknown keyword", { filter: { status: { const: "open" } } }, "/match/filter/status"],
  ])("%s", (_name, match, pointer) => {
    const error = setupError(rule(match));
    expect(error.ruleId).toBe("r");
    expect(error.pointer).toBe(pointer);
    expect(error.message).toContain('stub rule "r"');
    expect(error.message).toContain(pointer);
    expect(error.message).toContain("Fix:");
  });

  test("an invalid regular expression is refused at setup, with the engine's reason", () => {
    const error = setupError(rule({ query: { type: "string", pattern: "(unclosed" } }));
    expect(error.pointer).toBe("/match/query/pattern");
    expect(error.message).toMatch(/invalid regular expression "\(unclosed"/);
  });

  test("the __proto__ name is reserved anywhere, even in a response", () => {
    const stubs = JSON.parse('[{"id":"r","tool":"list_tasks","outcome":{"response":{"__proto__":{"x":1}}}}]');
    const error = setupError(stubs);
    expect(error.pointer).toBe("/outcome/response/__proto__");
    expect(error.message).toContain('"__proto__" is reserved');
  });
});

describe("rule shape", () => {
  test.each([
    ["top-level response", { id: "r", tool: "list_tasks", response: {} }, "/response", "outcome: { response"],
    ["top-level responses", { id: "r", tool: "list_tasks", responses: [] }, "/responses", "outcomes: [{ response"],
    ["both outcome and outcomes", { id: "r", tool: "list_tasks", outcome: { response: 1 }, outcomes: [{ response: 2 }] }, "", "both"],
    ["neither", { id: "r", tool: "list_tasks" }, "", "neither"],
    ["empty outcomes", { id: "r", tool: "list_tasks", outcomes: [] }, "/outcomes", "non-empty"],
    ["outcome with both", { id: "r", tool: "list_tasks", outcome: { response: 1, throw: { message: "x" } } }, "/outcome", "exactly one"],
    [
      "throw without message",
      { id: "r", tool: "list_tasks", outcomes: [{ response: 1 }, { throw: { name: "E" } }] },
      "/outcomes/1/throw",
      "message",
    ],
    [
      "non-JSON response",
      { id: "r", tool: "list_tasks", outcome: { response: { when: new Date(0) } } },
      "/outcome/response/when",
      "plain JSON",
    ],
    ["unknown field", { id: "r", tool: "list_tasks", outcome: { response: 1 }, delay: 5 }, "/delay", "unknown field"],
    ["unknown field with a slash and a tilde", { id: "r", tool: "list_tasks", outcome: { response: 1 }, "a/b~": 5 }, "/a~1b~0", "unknown"],
    [
      "unknown field of a throw, with a slash",
      { id: "r", tool: "list_tasks", outcome: { throw: { message: "m", "x/y": 1 } } },
      "/outcome/throw/x~1y",
      "unknown field",
    ],
  ])("%s", (_name, stub, pointer, words) => {
    const error = setupError([stub]);
    expect(error.pointer).toBe(pointer);
    expect(error.message).toContain(words);
  });

  test("the message says where the session was created", () => {
    const error = setupError([{ id: "r", tool: "list_tasks", outcome: { response: 1 }, extra: true }]);
    expect(error.message).toMatch(/\n {2}Session created at .*test[\\/]stubs[\\/]validation\.test\.ts:\d+:\d+$/);
  });

  test("a rule without an id", () => {
    const error = setupError([{ tool: "list_tasks", outcome: { response: 1 } }]);
    expect(error.ruleIndex).toBe(0);
    expect(error.pointer).toBe("/id");
  });

  test("duplicate rule ids", () => {
    const error = setupError([
      { id: "same", tool: "list_tasks", outcome: { response: 1 } },
      { id: "same", tool: "complete_task", outcome: { response: 2 } },
    ]);
    expect(error.ruleIndex).toBe(1);
    expect(error.message).toContain("duplicate rule id (also used by rule #0)");
  });

  test("an unknown tool name suggests the near one (a case slip)", () => {
    const error = setupError([{ id: "r", tool: "List_Tasks", outcome: { response: 1 } }]);
    expect(error.pointer).toBe("/tool");
    expect(error.message).toContain('the session has no tool "List_Tasks"');
    expect(error.message).toContain('did you mean "list_tasks"?');
  });

  test("an unknown subagent path is refused", () => {
    const error = setupError([{ id: "r", tool: "researcher/list_tasks", outcome: { response: 1 } }]);
    expect(error.message).toContain('no subagent path "researcher"');
  });

  test("a failed setup leaves no tool patched", () => {
    const { tools } = createTaskService();
    const original = tools.list_tasks.execute;
    expect(() => createSession({ agent: () => "", tools, stubs: [{ id: "r", tool: "nope", outcome: { response: 1 } }] })).toThrow(
      StubConfigError,
    );
    expect(tools.list_tasks.execute).toBe(original);
  });
});

describe("limits", () => {
  const ok = (i: number) => ({ id: `r${i}`, tool: "list_tasks", outcome: { response: i } });

  test("100 rules are accepted, 101 refused", () => {
    expect(setup(Array.from({ length: 100 }, (_, i) => ok(i)))).not.toThrow();
    expect(setupError(Array.from({ length: 101 }, (_, i) => ok(i))).message).toContain("at most 100");
  });

  test("more than 20,000 JSON nodes", () => {
    const big = Array.from({ length: 20_001 }, (_, i) => i);
    expect(setupError([{ id: "r", tool: "list_tasks", outcome: { response: big } }]).message).toContain("20000 JSON nodes");
  });

  test("nesting deeper than 32", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(setupError([{ id: "r", tool: "list_tasks", outcome: { response: deep } }]).message).toContain("deeper than 32");
  });

  test("about a million characters", () => {
    const long = "x".repeat(1_000_001);
    expect(setupError([{ id: "r", tool: "list_tasks", outcome: { response: long } }]).message).toContain("1000000 characters");
  });
});

describe("clear errors for what newcomers write", () => {
  test("a whole JSON Schema in `match` says that match is per property", () => {
    const error = setupError([
      { id: "r", tool: "list_tasks", match: { type: "object", properties: { status: { const: "open" } } }, outcome: { response: 1 } },
    ]);
    expect(error.message).toContain(
      'stub rule "r" at /match: `match` lists constraints per input property, but this looks like a whole JSON Schema',
    );
    expect(error.message).toContain('Fix: write the properties themselves: `match: {"status":{"const":"open"}}`');
  });

  test("a cyclic value is called cyclic, not too deep", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const error = setupError([{ id: "r", tool: "list_tasks", outcome: { response: cyclic } }]);
    expect(error.message).toContain("at /outcome/response/self: the value is cyclic: it contains itself.");
  });

  test("a 900 KB id is cut short in the message", () => {
    const id = "x".repeat(900_000);
    const error = setupError([{ id, tool: "nope", outcome: { response: 1 } }]);
    expect(error.message.length).toBeLessThan(1_000);
    expect(error.message).toContain(`stub rule "${"x".repeat(59)}…" at /tool`);
  });

  test("a throwing getter in a response is a StubConfigError naming the place", () => {
    const response = Object.defineProperty({}, "secret", {
      enumerable: true,
      get: () => {
        throw new Error("vault locked");
      },
    });
    const error = setupError([{ id: "r", tool: "list_tasks", outcome: { response } }]);
    expect(error).toBeInstanceOf(StubConfigError);
    expect(error.message).toContain("at /outcome/response/secret: reading this property threw: vault locked.");
  });

  test("a proxy whose prototype trap throws is a StubConfigError at its place, not the trap's own error", () => {
    const response = {
      tasks: new Proxy(
        {},
        {
          getPrototypeOf() {
            throw new Error("trap fired");
          },
        },
      ),
    };
    const error = setupError([{ id: "r", tool: "list_tasks", outcome: { response } }]);
    expect(error.pointer).toBe("/outcome/response/tasks");
    expect(error.message).toContain("reading this property threw: trap fired.");
  });

  test.each([
    ["a Date deep in a sequence", { tasks: [{ due: new Date(0) }] }, "/outcomes/1/response/tasks/0/due", "got an object (Date)"],
    ["NaN", { tasks: [], total: Number.NaN }, "/outcomes/1/response/total", "NaN is not JSON"],
    ["a Map under a key with a slash", { "a/b": new Map() }, "/outcomes/1/response/a~1b", "got an object (Map)"],
  ])("%s in a response is refused at its pointer, the others checked first", (_name, response, pointer, words) => {
    const error = setupError([{ id: "r", tool: "list_tasks", outcomes: [{ response: { tasks: [] } }, { response }] }]);
    expect(error.pointer).toBe(pointer);
    expect(error.message).toContain(words);
  });

  test('a missing value says undefined once (it said "undefined undefined")', () => {
    const error = setupError([{ id: "r", tool: undefined, outcome: { response: 1 } }]);
    expect(error.message).toContain("got undefined.");
    expect(error.message).not.toContain("undefined undefined");
  });
});
