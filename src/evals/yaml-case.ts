import type { Fault } from "../faults/types.js";
import { faultListProblem } from "../faults/check-faults.js";
import { StubConfigError, pointerToken } from "../exits/errors.js";
import { compactJson } from "../exits/excerpt.js";
import { compilePattern, PatternRefused } from "../stubs/pattern/compile-pattern.js";
import { unknownFieldFix, YAML_FIELDS as KEYS } from "./yaml-fields.js";

/** A tool mock in evalview's schema: the tool, a subset of its parameters, and what it returns or raises. */
export interface YamlToolMock {
  readonly tool: string;
  readonly match_params?: Readonly<Record<string, unknown>>;
  readonly returns?: unknown;
  readonly error?: string;
  readonly latency_ms?: number;
}

/** An LLM response mock: a prompt substring (or a regex with `regex: true`) and the text the model answers. */
export interface YamlResponseMock {
  readonly match_prompt: string;
  readonly regex?: boolean;
  readonly returns: string;
}

/** An HTTP mock: a URL substring (or a regex), a method, and the response. */
export interface YamlHttpMock {
  readonly url_pattern: string;
  readonly regex?: boolean;
  readonly method?: string;
  readonly status?: number;
  readonly body?: unknown;
}

/**
 * One YAML eval, in evalview's schema (`name`, `adapter`, `input.query`, `expected.tools`, `thresholds`,
 * `mocks`), with tooltrace's own `stubs` and `http` (the same contracts as in TypeScript) and `agent`, the
 * module that builds the agent (a path relative to the YAML file).
 */
export interface YamlEvalCase {
  readonly name: string;
  readonly adapter?: string;
  readonly agent?: string;
  readonly input: { readonly query: string; readonly turns?: readonly string[]; readonly context?: unknown };
  readonly expected?: {
    readonly tools?: readonly string[];
    readonly sequence?: readonly string[];
    readonly output?: { readonly contains?: readonly string[]; readonly not_contains?: readonly string[] };
  };
  readonly thresholds?: {
    readonly min_score?: number;
    readonly min_pass_rate?: number;
    readonly max_latency?: number;
    readonly max_cost?: number;
  };
  readonly mocks?: {
    readonly seed?: number;
    readonly strict?: boolean;
    readonly variants?: number;
    readonly tool_mocks?: readonly YamlToolMock[];
    readonly response_mocks?: readonly YamlResponseMock[];
    readonly http_mocks?: readonly YamlHttpMock[];
  };
  readonly stubs?: readonly unknown[];
  readonly http?: readonly unknown[];
  /** tooltrace's faults on the case's model calls (see `createSession({ faults })`). */
  readonly faults?: readonly Fault[];
}

/** A fault in a YAML eval: the file, the case and the JSON pointer, in tooltrace's message form. */
export function yamlError(file: string, caseName: string | undefined, pointer: string, problem: string, fix?: string): StubConfigError {
  const where = caseName === undefined ? file : `${file}, case "${caseName}"`;
  return new StubConfigError({ pointer, what: `YAML eval ${where}` }, problem, fix);
}

/** One fault of a case: its case, the JSON pointer inside it, what is wrong and what to do. */
export interface YamlFault {
  readonly caseName: string;
  readonly pointer: string;
  readonly problem: string;
  readonly fix?: string | undefined;
}

type Fail = (pointer: string, problem: string, fix?: string) => never;
type Attempt = (check: () => void) => void;
const FAULT = Symbol("fault");

/**
 * Checks one parsed document against the schema. Every fault is added to `faults` (a fault stops only the
 * check it was found in: the others go on); the case comes back when it has none.
 */
export function checkYamlCase(value: unknown, index: number, faults: YamlFault[]): YamlEvalCase | undefined {
  const caseName = record(value) && typeof value.name === "string" ? value.name : `#${index + 1}`;
  const before = faults.length;
  const fail: Fail = (pointer, problem, fix) => {
    faults.push({ caseName, pointer, problem, fix });
    throw FAULT;
  };
  const attempt: Attempt = (check) => {
    try {
      check();
    } catch (error) {
      if (error !== FAULT) throw error;
    }
  };
  if (!record(value)) {
    attempt(() => fail("", `a case is a mapping with name, input and mocks; got ${compactJson(value, 40)}.`));
    return undefined;
  }
  known(value, KEYS.case, "", fail, attempt);
  attempt(() => {
    if (typeof value.name !== "string" || value.name === "") fail("/name", "every case needs a `name` (the test's name).");
  });
  attempt(() => {
    const input = value.input;
    if (!record(input) || typeof input.query !== "string") fail("/input/query", "the user message is `input.query`, a string.");
    known(input as Record<string, unknown>, KEYS.input, "/input", fail, attempt);
    strings((input as Record<string, unknown>).turns, "/input/turns", fail);
  });
  attempt(() => {
    if (value.agent !== undefined && typeof value.agent !== "string") fail("/agent", "`agent` is a module path, relative to this file.");
  });
  if (value.expected !== undefined) attempt(() => checkExpected(value.expected, fail, attempt));
  if (value.thresholds !== undefined) attempt(() => checkThresholds(value.thresholds, fail, attempt));
  if (value.mocks !== undefined) attempt(() => checkMocks(value.mocks, fail, attempt));
  for (const key of ["stubs", "http"] as const)
    attempt(() => {
      if (value[key] !== undefined && !Array.isArray(value[key]))
        fail(`/${key}`, `\`${key}\` is a list of tooltrace ${key === "stubs" ? "stub rules" : "HTTP mocks"}.`);
    });
  attempt(() => {
    const problem = value.faults === undefined ? undefined : faultListProblem(value.faults);
    if (problem !== undefined) fail(`/faults${problem.pointer}`, `${problem.problem}.`, `${problem.fix}.`);
  });
  return faults.length === before ? (value as unknown as YamlEvalCase) : undefined;
}

function checkExpected(value: unknown, fail: Fail, attempt: Attempt): void {
  if (!record(value)) fail("/expected", "`expected` is a mapping (tools, sequence, output).");
  const expected = value as Record<string, unknown>;
  known(expected, KEYS.expected, "/expected", fail, attempt);
  attempt(() => strings(expected.tools, "/expected/tools", fail));
  attempt(() => strings(expected.sequence, "/expected/sequence", fail));
  if (expected.output === undefined) return;
  if (!record(expected.output)) fail("/expected/output", "`expected.output` is a mapping (contains, not_contains).");
  const output = expected.output as Record<string, unknown>;
  known(output, KEYS.output, "/expected/output", fail, attempt);
  attempt(() => strings(output.contains, "/expected/output/contains", fail));
  attempt(() => strings(output.not_contains, "/expected/output/not_contains", fail));
}

function checkThresholds(value: unknown, fail: Fail, attempt: Attempt): void {
  if (!record(value)) fail("/thresholds", "`thresholds` is a mapping (min_score, min_pass_rate).");
  const thresholds = value as Record<string, unknown>;
  known(thresholds, KEYS.thresholds, "/thresholds", fail, attempt);
  attempt(() => range(thresholds.min_score, 0, 100, "/thresholds/min_score", fail));
  attempt(() => range(thresholds.min_pass_rate, 0, 1, "/thresholds/min_pass_rate", fail, "write 0.8 for 80%."));
  attempt(() => range(thresholds.max_latency, 0, 3_600_000, "/thresholds/max_latency", fail));
  if (thresholds.max_cost !== undefined)
    fail(
      "/thresholds/max_cost",
      "tooltrace knows no prices, so it cannot check a cost.",
      "remove max_cost, or bound tokens in a TypeScript eval with toHaveUsageAtMost.",
    );
}

function checkMocks(mocks: unknown, fail: Fail, attempt: Attempt): void {
  if (!record(mocks)) fail("/mocks", "`mocks` is a mapping (seed, strict, tool_mocks, response_mocks, http_mocks).");
  const m = mocks as Record<string, unknown>;
  known(m, KEYS.mocks, "/mocks", fail, attempt);
  attempt(() => {
    if (m.seed !== undefined && !Number.isSafeInteger(m.seed))
      fail("/mocks/seed", `the seed is an integer; got ${compactJson(m.seed, 30)}.`);
  });
  attempt(() => {
    if (m.strict !== undefined && typeof m.strict !== "boolean") fail("/mocks/strict", "`strict` is true or false.");
  });
  attempt(() => {
    if (m.variants !== undefined && !(Number.isInteger(m.variants) && (m.variants as number) >= 1))
      fail("/mocks/variants", "`variants` is a positive integer.");
  });
  const each = (value: unknown, at: string, check: (mock: Record<string, unknown>, at: string) => void) => {
    let items: unknown[] = [];
    attempt(() => {
      items = list(value, at, fail);
    });
    items.forEach((mock, i) => {
      attempt(() => check(mock as Record<string, unknown>, `${at}/${i}`));
    });
  };
  each(m.tool_mocks, "/mocks/tool_mocks", (mock, at) => {
    if (!record(mock) || typeof mock.tool !== "string" || mock.tool === "") fail(`${at}/tool`, "each tool mock names its `tool`.");
    known(mock, KEYS.tool, at, fail, attempt);
    if (mock.match_params !== undefined && !record(mock.match_params))
      fail(`${at}/match_params`, "`match_params` is a mapping of parameter names to values.");
    if (mock.error !== undefined && typeof mock.error !== "string") fail(`${at}/error`, "`error` is the message the tool raises.");
    if (mock.error !== undefined && "returns" in mock) fail(`${at}/error`, "a tool mock either `returns` or raises an `error`, not both.");
    range(mock.latency_ms, 0, 60_000, `${at}/latency_ms`, fail);
  });
  each(m.response_mocks, "/mocks/response_mocks", (mock, at) => {
    if (!record(mock) || typeof mock.match_prompt !== "string")
      fail(`${at}/match_prompt`, "each response mock has a `match_prompt` string.");
    known(mock, KEYS.response, at, fail, attempt);
    if (typeof mock.returns !== "string") fail(`${at}/returns`, "a response mock `returns` the model's text, a string.");
    if (mock.regex === true) regex(mock.match_prompt, `${at}/match_prompt`, fail);
  });
  each(m.http_mocks, "/mocks/http_mocks", (mock, at) => {
    if (!record(mock) || typeof mock.url_pattern !== "string" || mock.url_pattern === "")
      fail(`${at}/url_pattern`, "each HTTP mock has a `url_pattern` (a part of the URL).");
    known(mock, KEYS.http, at, fail, attempt);
    if (mock.method !== undefined && typeof mock.method !== "string") fail(`${at}/method`, "`method` is an HTTP method such as GET.");
    range(mock.status, 100, 599, `${at}/status`, fail);
    if (mock.regex === true) regex(mock.url_pattern, `${at}/url_pattern`, fail);
  });
}

function record(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function known(value: Record<string, unknown>, keys: readonly string[], at: string, fail: Fail, attempt: Attempt): void {
  for (const key of Object.keys(value))
    if (!keys.includes(key))
      attempt(() => fail(`${at}/${pointerToken(key)}`, `unknown field \`${key}\`.`, unknownFieldFix(key, keys, at === "")));
}

function strings(value: unknown, at: string, fail: (pointer: string, problem: string) => never): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(at, "a list of strings.");
  (value as unknown[]).forEach((item, i) => {
    if (typeof item !== "string") fail(`${at}/${i}`, `a string; got ${compactJson(item, 30)}.`);
  });
}

function list(value: unknown, at: string, fail: (pointer: string, problem: string) => never): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(at, "a list.");
  return value as unknown[];
}

function range(
  value: unknown,
  min: number,
  max: number,
  at: string,
  fail: (pointer: string, problem: string, fix?: string) => never,
  fix?: string,
): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !(value >= min && value <= max))
    fail(at, `a number from ${min} to ${max}; got ${compactJson(value, 30)}.`, fix);
}

/** A `regex: true` pattern runs on the linear-time engine of stub patterns: no prompt or URL can block the worker. */
function regex(pattern: string, at: string, fail: (pointer: string, problem: string, fix?: string) => never): void {
  try {
    compilePattern(pattern);
  } catch (error) {
    if (error instanceof PatternRefused) fail(at, error.message, error.fix);
    throw error;
  }
}
