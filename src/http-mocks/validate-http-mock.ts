import type { Fault } from "../faults/types.js";
import { faultListProblem } from "../faults/check-faults.js";
import { StubConfigError, type ConfigErrorLocation, pointerToken } from "../exits/errors.js";
import { excerpt } from "../exits/excerpt.js";
import { compileMatch } from "../stubs/compile-match.js";
import { plainCopyOf } from "../stubs/limits.js";
import { PatternRefused } from "../stubs/pattern/compile-pattern.js";
import { compileUrlPattern } from "./url-pattern.js";
import type { MatchProgram } from "../stubs/match-program.js";
import type { ToolStubMatch } from "../stubs/types.js";
import { describe, isPlainObject, validateMatch } from "../stubs/validate-match.js";
import type { HttpMockOutcome } from "./types.js";

/** An HTTP token: what `Headers` accepts as a name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const MOCK_FIELDS = new Set(["id", "method", "url", "match", "outcome", "outcomes", "faults"]);
const RESPONSE_FIELDS = new Set(["status", "json", "text", "headers", "delayMs"]);

/** An HTTP mock after validation, its `match` compiled. */
export interface CompiledHttpMock {
  readonly id: string;
  readonly method: string | undefined;
  readonly url: string | RegExp;
  readonly program: MatchProgram;
  readonly outcomes: readonly HttpMockOutcome[];
  readonly faults: readonly Fault[] | undefined;
}

/**
 * Validates HTTP mocks the way stub rules are validated: the first fault throws a `StubConfigError` naming
 * the mock, the JSON pointer and what to write instead; `match` goes through the same subset check.
 */
export function compileHttpMocks(mocks: unknown): CompiledHttpMock[] {
  if (mocks === undefined) return [];
  if (!Array.isArray(mocks))
    throw new StubConfigError(
      { pointer: "", what: "HTTP mock" },
      "`http` must be an array of HTTP mocks ({ id, method?, url, match?, outcome | outcomes }).",
    );
  // One plain copy, read once with the limits checked: a Proxy, a getter or a cycle fails here.
  const plain = plainCopyOf(mocks, "HTTP mock").items;
  const seen = new Set<string>();
  return plain.map((mock, index) => {
    const compiled = compileOne(mock, index);
    if (seen.has(compiled.id))
      throw new StubConfigError(
        { ruleId: compiled.id, ruleIndex: index, pointer: "/id", what: "HTTP mock" },
        "duplicate HTTP mock id.",
        "give every mock a unique id.",
      );
    seen.add(compiled.id);
    return compiled;
  });
}

function compileOne(mock: unknown, index: number): CompiledHttpMock {
  if (!isPlainObject(mock))
    throw new StubConfigError(
      { ruleIndex: index, pointer: "", what: "HTTP mock" },
      `an HTTP mock must be an object, got ${describe(mock)}.`,
    );
  const { id } = mock;
  if (typeof id !== "string" || id === "")
    throw new StubConfigError(
      { ruleIndex: index, pointer: "/id", what: "HTTP mock" },
      "every HTTP mock needs a non-empty string `id`.",
      'add e.g. `id: "weather"`.',
    );
  const at = (pointer: string): ConfigErrorLocation => ({ ruleId: id, ruleIndex: index, pointer, what: "HTTP mock" });
  for (const key of Object.keys(mock)) {
    if (!MOCK_FIELDS.has(key))
      throw new StubConfigError(
        at(`/${pointerToken(key)}`),
        `unknown field \`${key}\`.`,
        "an HTTP mock has only id, method, url, match, outcome or outcomes, and faults.",
      );
  }
  const { url, method } = mock;
  if (!(url instanceof RegExp) && (typeof url !== "string" || url === "")) {
    throw new StubConfigError(
      at("/url"),
      `\`url\` must be a URL, an MSW-style pattern (\`https://api.test/users/:id\`) or a RegExp, got ${describe(url)}.`,
    );
  }
  try {
    compileUrlPattern(url as string | RegExp);
  } catch (error) {
    if (error instanceof PatternRefused) throw new StubConfigError(at("/url"), error.message, error.fix);
    throw error;
  }
  if (method !== undefined && (typeof method !== "string" || !/^[A-Za-z]+$/.test(method))) {
    throw new StubConfigError(at("/method"), `\`method\` must be an HTTP method such as "GET", got ${describe(method)}.`);
  }
  if (mock.match !== undefined) validateMatch(mock.match, { ruleId: id, ruleIndex: index, what: "HTTP mock" });
  if ("outcome" in mock === "outcomes" in mock) {
    throw new StubConfigError(
      at(""),
      "outcome" in mock ? "both `outcome` and `outcomes` are set." : "neither `outcome` nor `outcomes` is set.",
      "use `outcome` for one repeated answer, or `outcomes` for a sequence.",
    );
  }
  const outcomes = "outcome" in mock ? [checkOutcome(mock.outcome, at("/outcome"))] : checkOutcomes(mock.outcomes, at);
  const faults = mock.faults as readonly Fault[] | undefined;
  const problem = faults === undefined ? undefined : faultListProblem(faults);
  if (problem !== undefined) throw new StubConfigError(at(`/faults${problem.pointer}`), `${problem.problem}.`, problem.fix);
  return { id, method: method?.toUpperCase(), url, program: compileMatch(mock.match as ToolStubMatch | undefined), outcomes, faults };
}

function checkOutcomes(outcomes: unknown, at: (pointer: string) => ConfigErrorLocation): HttpMockOutcome[] {
  if (!Array.isArray(outcomes) || outcomes.length === 0)
    throw new StubConfigError(at("/outcomes"), "`outcomes` must be a non-empty array.", "use `outcome` for a single answer.");
  return outcomes.map((outcome, i) => checkOutcome(outcome, at(`/outcomes/${i}`)));
}

function checkOutcome(outcome: unknown, location: ConfigErrorLocation): HttpMockOutcome {
  if (!isPlainObject(outcome))
    throw new StubConfigError(
      location,
      `an outcome must be an object, got ${describe(outcome)}.`,
      'write `{ json: ... }`, `{ status: 404, text: ... }` or `{ networkError: "..." }`.',
    );
  if ("networkError" in outcome) {
    if (typeof outcome.networkError !== "string" || Object.keys(outcome).length > 1) {
      throw new StubConfigError(
        { ...location, pointer: `${location.pointer}/networkError` },
        "`networkError` takes the error's message, and nothing beside it.",
      );
    }
    return { networkError: outcome.networkError };
  }
  for (const key of Object.keys(outcome)) {
    if (!RESPONSE_FIELDS.has(key))
      throw new StubConfigError(
        { ...location, pointer: `${location.pointer}/${pointerToken(key)}` },
        `unknown field \`${key}\`.`,
        "a response has status, json, text, headers and delayMs; a failure is `{ networkError }`.",
      );
  }
  const { status, json, text, headers, delayMs } = outcome;
  const field = (name: string) => ({ ...location, pointer: `${location.pointer}/${name}` });
  if (status !== undefined && (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599))
    throw new StubConfigError(field("status"), `\`status\` must be an integer from 200 to 599, got ${describe(status)}.`);
  if ((status === 204 || status === 205 || status === 304) && (json !== undefined || text !== undefined))
    throw new StubConfigError(field("status"), `a ${String(status)} response has no body.`, "drop `json`/`text`, or use another status.");
  if (json !== undefined && text !== undefined) throw new StubConfigError(location, "both `json` and `text` are set.", "give one body.");
  if (text !== undefined && typeof text !== "string")
    throw new StubConfigError(field("text"), `\`text\` must be a string, got ${describe(text)}.`);
  if (headers !== undefined && (!isPlainObject(headers) || Object.values(headers).some((value) => typeof value !== "string")))
    throw new StubConfigError(field("headers"), "`headers` must be an object of strings.");
  for (const [name, value] of Object.entries((headers ?? {}) as Record<string, string>)) {
    const here = { ...location, pointer: `${location.pointer}/headers/${pointerToken(name)}` };
    if (!HEADER_NAME.test(name))
      throw new StubConfigError(
        here,
        `${JSON.stringify(excerpt(name, 40))} is not a header name, so the response could not be sent.`,
        "use letters, digits and `-`.",
      );
    if (/[\r\n\0]/.test(value))
      throw new StubConfigError(
        here,
        "a header value holds a line break or a NUL, so the response could not be sent.",
        "put the value on one line.",
      );
  }
  if (json !== undefined) checkJson(json, field("json"));
  const isDelay = (value: unknown) => typeof value === "number" && value >= 0 && value <= 60_000;
  if (delayMs !== undefined && !isDelay(delayMs)) {
    const range = isPlainObject(delayMs) ? (delayMs as { min?: unknown; max?: unknown }) : undefined;
    const keys = range === undefined ? [] : Object.keys(range);
    if (
      range === undefined ||
      !keys.every((key) => key === "min" || key === "max") ||
      !isDelay(range.min) ||
      !isDelay(range.max) ||
      (range.min as number) > (range.max as number)
    ) {
      throw new StubConfigError(
        field("delayMs"),
        `\`delayMs\` must be a number of milliseconds from 0 to 60000, or a range { min, max } within it, got ${describe(delayMs)}.`,
      );
    }
  }
  return outcome as HttpMockOutcome;
}

/** A `json` body must be JSON: what `JSON.stringify` would drop or turn into `null` (NaN, a bigint, a function) is refused. */
function checkJson(value: unknown, location: ConfigErrorLocation): void {
  const fault =
    typeof value === "number" && !Number.isFinite(value)
      ? `${String(value)}, which JSON would send as null`
      : typeof value === "bigint" || typeof value === "function" || typeof value === "symbol" || value === undefined
        ? `${value === undefined ? "undefined" : `a ${typeof value}`}, which is not JSON`
        : undefined;
  if (fault !== undefined)
    throw new StubConfigError(
      location,
      `the body holds ${fault}.`,
      "give plain JSON: strings, finite numbers, booleans, null, arrays and objects.",
    );
  if (value === null || typeof value !== "object") return;
  if (value instanceof RegExp)
    throw new StubConfigError(location, "the body holds a RegExp, which is not JSON.", "give the pattern as a string.");
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined && !Array.isArray(value)) continue;
    checkJson(item, { ...location, pointer: `${location.pointer}/${pointerToken(key)}` });
  }
}
