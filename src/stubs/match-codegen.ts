import { BoundedCache } from "../base/bounded-cache.js";
import { Op, TYPE_BITS, type Check, type MatchProgram, type Property } from "./match-program.js";
import type { CompiledPattern } from "./pattern/compile-pattern.js";
import { codePoints } from "./code-points.js";
import { interpretFirstMatch } from "./match-interpreter.js";

/** The index of the first program an input passes, or -1. */
export type FirstMatch = (input: unknown) => number;

const cache = new BoundedCache<string, FirstMatch>(500);
/** Calls after which a rule list is compiled: a list called this often is worth a function of its own. */
const COMPILE_AFTER = 64;

/**
 * The matcher of one tool's rules: interpreted for its first calls, then compiled (see `compileFirstMatch`)
 * once it has been called often, or at once when the same rules were compiled before.
 */
export function firstMatcher(key: string, programs: readonly MatchProgram[]): FirstMatch {
  const compiled = cache.get(key);
  if (compiled !== undefined) return compiled;
  let calls = 0;
  let fast: FirstMatch | undefined;
  return (input) => {
    if (fast !== undefined) return fast(input);
    if (++calls >= COMPILE_AFTER) {
      fast = compileFirstMatch(key, programs);
      return fast(input);
    }
    return interpretFirstMatch(programs, input);
  };
}

/**
 * Compiles one tool's rules, in order, into a single JavaScript function that returns the index of the first
 * rule the input passes (first match wins). One function with every check written out keeps each property
 * read a monomorphic inline-cached load and calls nothing for the common checks, so a hundred rules cost
 * little more than a hundred comparisons. Patterns and ajv validators are called through tables.
 * Cached by `key` (the rules' `match` JSON), bounded.
 */
export function compileFirstMatch(key: string, programs: readonly MatchProgram[]): FirstMatch {
  return cache.getOrCreate(key, () => generate(programs));
}

function generate(programs: readonly MatchProgram[]): FirstMatch {
  const emitter = new Emitter();
  const body = programs.map((program, index) => emitter.rule(program, index)).join("\n");
  const factory = new Function("P", "A", "L", `"use strict";\nreturn function firstMatch(v) {\n${body}\nreturn -1;\n};`) as (
    patterns: readonly CompiledPattern[],
    validators: readonly ((value: unknown) => boolean)[],
    length: (text: string) => number,
  ) => FirstMatch;
  return factory(emitter.patterns, emitter.validators, codePoints);
}

class Emitter {
  readonly patterns: CompiledPattern[] = [];
  readonly validators: ((value: unknown) => boolean)[] = [];
  private names = 0;

  rule(program: MatchProgram, index: number): string {
    const label = `r${index}`;
    return `${label}: {\n${this.checks(program, "v", label)}return ${index};\n}`;
  }

  private variable(): string {
    return `x${this.names++}`;
  }

  /** Statements that `break label` when `value` fails a check. */
  private checks(checks: readonly Check[], value: string, label: string): string {
    return checks.map((check) => this.check(check, value, label)).join("");
  }

  private check(check: Check, x: string, label: string): string {
    const fail = `break ${label};\n`;
    switch (check.op) {
      case Op.Type:
        return `if (!(${typeTest(check.number, x)})) ${fail}`;
      case Op.Const:
        return `if (${x} !== ${literal(check.value)}) ${fail}`;
      case Op.Enum:
        return `if (!(${(check.values ?? []).map((value) => `${x} === ${literal(value)}`).join(" || ")})) ${fail}`;
      case Op.MinLength:
        return `if (typeof ${x} === "string" && L(${x}) < ${check.number}) ${fail}`;
      case Op.MaxLength:
        return `if (typeof ${x} === "string" && L(${x}) > ${check.number}) ${fail}`;
      case Op.Minimum:
        return `if (typeof ${x} === "number" && (${x} < ${check.number} || ${x} !== ${x})) ${fail}`;
      case Op.Maximum:
        return `if (typeof ${x} === "number" && (${x} > ${check.number} || ${x} !== ${x})) ${fail}`;
      case Op.ExclusiveMinimum:
        return `if (typeof ${x} === "number" && (${x} <= ${check.number} || ${x} !== ${x})) ${fail}`;
      case Op.ExclusiveMaximum:
        return `if (typeof ${x} === "number" && (${x} >= ${check.number} || ${x} !== ${x})) ${fail}`;
      case Op.Pattern: {
        const pattern = check.pattern as CompiledPattern;
        this.patterns.push(pattern);
        const prefix = pattern.prefix === "" ? "" : `!${x}.startsWith(${JSON.stringify(pattern.prefix)}) || `;
        return `if (typeof ${x} === "string" && (${prefix}!P[${this.patterns.length - 1}].test(${x}))) ${fail}`;
      }
      case Op.Never:
        return fail;
      case Op.Ajv:
        this.validators.push(check.validate as (value: unknown) => boolean);
        return `if (!A[${this.validators.length - 1}](${x})) ${fail}`;
      case Op.Object:
        return this.object(check, x, label);
    }
  }

  private object(check: Check, x: string, label: string): string {
    const props = (check.props ?? []) as readonly Property[];
    const inner = props
      .map((property) => {
        const y = this.variable();
        const missing = property.required ? `break ${label};` : "";
        const present = this.checks(property.checks, y, label);
        return `const ${y} = ${x}[${JSON.stringify(property.name)}];\nif (${y} === undefined) {${missing}}${present ? ` else {\n${present}}` : ""}\n`;
      })
      .join("");
    const isObject = `${x} !== null && typeof ${x} === "object" && !Array.isArray(${x})`;
    // A top-level `match` requires an object; nested `properties` apply only when the value is one.
    return check.number === 1 ? `if (!(${isObject})) break ${label};\n${inner}` : `if (${isObject}) {\n${inner}}\n`;
  }
}

/** ajv's type tests, joined for a `type` that lists several. */
function typeTest(bits: number, x: string): string {
  const tests: string[] = [];
  if (bits & TYPE_BITS.null) tests.push(`${x} === null`);
  if (bits & TYPE_BITS.boolean) tests.push(`typeof ${x} === "boolean"`);
  if (bits & TYPE_BITS.number) tests.push(`typeof ${x} === "number"`);
  else if (bits & TYPE_BITS.integer) tests.push(`(typeof ${x} === "number" && !(${x} % 1) && ${x} === ${x})`);
  if (bits & TYPE_BITS.string) tests.push(`typeof ${x} === "string"`);
  if (bits & TYPE_BITS.array) tests.push(`Array.isArray(${x})`);
  if (bits & TYPE_BITS.object) tests.push(`(${x} !== null && typeof ${x} === "object" && !Array.isArray(${x}))`);
  return tests.length === 0 ? "false" : tests.join(" || ");
}

/** A scalar as a JavaScript literal. */
function literal(value: unknown): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  return JSON.stringify(value) ?? "undefined";
}
