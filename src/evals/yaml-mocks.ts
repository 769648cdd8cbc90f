import { PREFIX, StubConfigError } from "../exits/errors.js";
import type { HttpMock } from "../http-mocks/types.js";
import { compileHttpMocks } from "../http-mocks/validate-http-mock.js";
import type { Middleware } from "../middleware/types.js";
import { resolveReply } from "../model/resolve-reply.js";
import type { MockModelRequest } from "../model/types.js";
import type { Step } from "../pipeline/types.js";
import { compilePattern } from "../stubs/pattern/compile-pattern.js";
import { createRuleSet } from "../stubs/rule-set.js";
import type { MatchSchema, ToolStub, ToolStubMatch } from "../stubs/types.js";
import { type YamlEvalCase, type YamlToolMock, yamlError } from "./yaml-case.js";

/** A case's mocks as tooltrace's session options. */
export interface YamlSessionParts {
  readonly stubs: readonly ToolStub[];
  readonly http: readonly HttpMock[];
  readonly steps: readonly Step[];
  readonly middleware: readonly Middleware[];
  readonly strict: boolean;
}

/** The id a tool mock's rule gets: its place in the file. */
export const toolMockId = (index: number) => `tool_mocks/${index}`;
/** The name the response mocks answer under, in the trace. */
export const RESPONSE_MOCKS = "response_mocks";

/**
 * evalview's mocks as tooltrace's: each tool mock a stub rule (`match_params` a subset of equal values,
 * `returns` a response, `error` a throw), before the case's own `stubs`; each HTTP mock an HTTP mock (the URL a
 * substring or a regex), before the case's own `http`; response mocks a step that answers model calls whose
 * prompt (`role: text` lines) matches; `latency_ms` a middleware that waits before the matching call.
 * Validated with the same checks as `createSession`, so a fault names the file, the case and the YAML pointer.
 */
export function yamlSessionParts(file: string, evalCase: YamlEvalCase): YamlSessionParts {
  const toolMocks = evalCase.mocks?.tool_mocks ?? [];
  const stubs = [...toolMocks.map(toStub), ...((evalCase.stubs ?? []) as ToolStub[])];
  const http = [...(evalCase.mocks?.http_mocks ?? []).map(toHttpMock), ...((evalCase.http ?? []) as HttpMock[])];
  try {
    createRuleSet(stubs);
  } catch (error) {
    throw relocate(error, file, evalCase.name, toolMocks.length, "stubs");
  }
  try {
    compileHttpMocks(http);
  } catch (error) {
    throw relocate(error, file, evalCase.name, evalCase.mocks?.http_mocks?.length ?? 0, "http");
  }
  const responses = evalCase.mocks?.response_mocks ?? [];
  return {
    stubs,
    http,
    steps: responses.length === 0 ? [] : [responseStep(responses)],
    middleware: toolMocks.some((mock) => mock.latency_ms) ? [latencyMiddleware(toolMocks)] : [],
    strict: evalCase.mocks?.strict === true,
  };
}

function toStub(mock: YamlToolMock, index: number): ToolStub {
  const base = { id: toolMockId(index), tool: mock.tool, ...(mock.match_params ? { match: matchOf(mock.match_params) } : {}) };
  return mock.error !== undefined
    ? { ...base, outcome: { throw: { message: mock.error } } }
    : { ...base, outcome: { response: mock.returns ?? null } };
}

/** evalview's subset match: each listed parameter equals the value (deeply), other parameters may be there. */
function matchOf(params: Readonly<Record<string, unknown>>): ToolStubMatch {
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, equalTo(value)]));
}

function equalTo(value: unknown): MatchSchema {
  if (value === null) return { type: "null" };
  if (Array.isArray(value)) return { type: "array", prefixItems: value.map(equalTo), minItems: value.length, maxItems: value.length };
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return { type: "object", properties: Object.fromEntries(entries.map(([k, v]) => [k, equalTo(v)])), required: entries.map(([k]) => k) };
  }
  return { const: value as string | number | boolean };
}

function toHttpMock(mock: NonNullable<NonNullable<YamlEvalCase["mocks"]>["http_mocks"]>[number], index: number): HttpMock {
  const url = new RegExp(mock.regex === true ? mock.url_pattern : mock.url_pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const body = mock.body === undefined ? {} : typeof mock.body === "string" ? { text: mock.body } : { json: mock.body };
  return {
    id: `http_mocks/${index}`,
    url,
    ...(mock.method ? { method: mock.method } : {}),
    outcome: { status: mock.status ?? 200, ...body },
  };
}

function responseStep(mocks: NonNullable<NonNullable<YamlEvalCase["mocks"]>["response_mocks"]>): Step {
  const tests = mocks.map((mock) => {
    const pattern = mock.regex === true ? compilePattern(mock.match_prompt) : undefined;
    return (prompt: string) => (pattern ? pattern.test(prompt) : prompt.includes(mock.match_prompt));
  });
  let calls = 0;
  return {
    name: RESPONSE_MOCKS,
    kinds: ["model"],
    run: (ctx, next) => {
      const request = ctx.input as MockModelRequest;
      const prompt = request.messages.map((message) => `${message.role}: ${message.text}`).join("\n");
      const found = tests.findIndex((matches) => matches(prompt));
      if (found === -1) return next();
      calls += 1;
      return ctx.answer(resolveReply(mocks[found]?.returns ?? "", request, calls), { kind: "middleware", name: RESPONSE_MOCKS });
    },
  };
}

function latencyMiddleware(mocks: readonly YamlToolMock[]): Middleware {
  // The same subset semantics as the mock's rule (`equalTo`): listed keys equal, nested objects may hold more.
  const fits = (actual: unknown, expected: unknown): boolean => {
    if (expected === null || typeof expected !== "object") return actual === expected;
    if (Array.isArray(expected))
      return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => fits(actual[i], item));
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) => key in actual && fits((actual as Record<string, unknown>)[key], value));
  };
  const matches = (mock: YamlToolMock, tool: string, input: unknown) => mock.tool === tool && fits(input, mock.match_params ?? {});
  return {
    name: "latency_ms",
    onToolCall: async ({ tool, input, handler }) => {
      const delay = mocks.find((mock) => matches(mock, tool, input))?.latency_ms ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      return handler(input);
    },
  };
}

/** A pointer inside a converted rule or HTTP mock, as the YAML field it came from. */
function yamlField(pointer: string): string {
  const renames: [RegExp, string][] = [
    [/^\/match(?=\/|$)/, "/match_params"],
    [/^\/outcome\/response/, "/returns"],
    [/^\/outcome\/throw(\/message)?/, "/error"],
    [/^\/outcome\/status/, "/status"],
    [/^\/outcome\/(json|text)/, "/body"],
    [/^\/url/, "/url_pattern"],
  ];
  for (const [from, to] of renames) if (from.test(pointer)) return pointer.replace(from, to);
  return pointer;
}

/** A stub or HTTP mock fault, renamed to its place in the YAML file. */
function relocate(error: unknown, file: string, caseName: string, converted: number, list: "stubs" | "http"): unknown {
  if (!(error instanceof StubConfigError) || error.ruleIndex === undefined) return error;
  const index = error.ruleIndex;
  const yamlList = list === "stubs" ? "tool_mocks" : "http_mocks";
  const pointer =
    index < converted ? `/mocks/${yamlList}/${index}${yamlField(error.pointer)}` : `/${list}/${index - converted}${error.pointer}`;
  // The message names the rule by its place in the list tooltrace was given; the YAML pointer replaces that.
  const text = error.message.startsWith(`${PREFIX} `) ? error.message.slice(PREFIX.length + 1) : error.message;
  const detail = text.slice(text.indexOf(": ") + 2);
  return yamlError(file, caseName, pointer, detail.split("\n")[0] ?? detail, detail.split("\n  Fix: ")[1]);
}
