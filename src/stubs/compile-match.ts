import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { compilePattern } from "./pattern/compile-pattern.js";
import type { MatchScalar, ToolStubMatch } from "./types.js";

/** A compiled `match`: true when the input satisfies every listed property. */
export type InputPredicate = (input: unknown) => boolean;

let shared: Ajv2020 | undefined;
/** Compiled validators by the JSON of their `match`, shared by every session; the oldest go first past the bound. */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 1000;

/** ajv's pattern engine: linear-time matching for every `pattern` (see `compilePattern`). */
const regExp = Object.assign((pattern: string) => compilePattern(pattern), { code: "tooltraceLinearRegExp" });

function ajv(): Ajv2020 {
  // No coercion, no defaults: matching never changes the arguments the real tool or the stub sees.
  shared ??= new Ajv2020({ strict: false, coerceTypes: false, useDefaults: false, allErrors: false, validateFormats: false, unicodeRegExp: true, messages: false, code: { regExp } });
  return shared;
}

/**
 * Compiles a validated `match` once (and once per distinct `match` in the process, so sessions that share
 * fixtures share validators); `undefined` or `{}` matches any input.
 *
 * ajv decides every match. In front of it sits a cheap necessary condition: each listed property must be
 * present, and a top-level scalar `const` or `enum` must hold by `===`. With many rules for one tool, most
 * rules fail there without paying for ajv's failure path.
 */
export function compileMatch(match: ToolStubMatch | undefined): InputPredicate {
  if (match === undefined || Object.keys(match).length === 0) return () => true;
  const key = JSON.stringify(match);
  let validate = compiled.get(key);
  if (validate === undefined) {
    const schema = { type: "object", properties: match, required: Object.keys(match) };
    validate = ajv().compile(schema);
    // ajv keeps every compiled schema too; forget it there, or the bound here would not bound anything.
    ajv().removeSchema(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  } else {
    // Most recently used last, so the bound drops the least recently used.
    compiled.delete(key);
    compiled.set(key, validate);
  }
  const full = validate;
  const names = Object.keys(match);
  const prefilters = names.map((name) => scalarPrefilter(name, match[name]));
  return (input) => {
    if (input === null || typeof input !== "object" || Array.isArray(input)) return false;
    const record = input as Record<string, unknown>;
    for (const prefilter of prefilters) if (!prefilter(record)) return false;
    return full(input) === true;
  };
}

/** The property is present, and equals the scalar `const` (or one of the `enum` values) when there is one. */
function scalarPrefilter(name: string, schema: ToolStubMatch[string] | undefined): (record: Record<string, unknown>) => boolean {
  if (schema !== null && typeof schema === "object") {
    if ("const" in schema) {
      const value = schema.const;
      return (record) => record[name] === value && Object.hasOwn(record, name);
    }
    if (Array.isArray(schema.enum)) {
      const values = schema.enum as readonly MatchScalar[];
      return (record) => Object.hasOwn(record, name) && values.includes(record[name] as MatchScalar);
    }
  }
  return (record) => Object.hasOwn(record, name);
}
