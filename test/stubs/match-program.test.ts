import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, test } from "vitest";
import { compileFirstMatch } from "../../src/stubs/match-codegen.js";
import { interpretFirstMatch } from "../../src/stubs/match-interpreter.js";
import { compileMatchProgram } from "../../src/stubs/match-program.js";
import type { ToolStubMatch } from "tooltrace";

/** A small seeded generator, so a failure names a case that reproduces. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const SCALARS = ["a", "ab", "milk", "Milk", "", "é😀", 0, -0, 1, 1.5, -3, 10, Number.NaN, Number.POSITIVE_INFINITY, true, false, null];
const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"] as const;
const PATTERNS = ["^m", "^mil", "^ab\\d", "k$", "\\bmilk\\b", "(a+)+$", "^[a-z]+$", "\\d", "é"];

function schema(r: ReturnType<typeof random>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keywords = Math.floor(r.next() * 3) + 1;
  for (let i = 0; i < keywords; i++) {
    switch (
      r.pick([
        "type",
        "const",
        "enum",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "properties",
        "anyOf",
      ])
    ) {
      case "type":
        out.type = r.next() < 0.3 ? [...new Set([r.pick(TYPES), r.pick(TYPES)])] : r.pick(TYPES);
        break;
      case "const":
        out.const = r.pick(SCALARS.filter((value) => !Number.isNaN(value) && value !== Number.POSITIVE_INFINITY));
        break;
      case "enum":
        out.enum = [r.pick(SCALARS.slice(0, 12)), r.pick(SCALARS.slice(0, 12))];
        break;
      case "pattern":
        out.pattern = r.pick(PATTERNS);
        break;
      case "minLength":
      case "maxLength":
        out[r.pick(["minLength", "maxLength"])] = Math.floor(r.next() * 4);
        break;
      case "properties":
        if (depth < 2) {
          out.properties = { a: schema(r, depth + 1), b: schema(r, depth + 1) };
          if (r.next() < 0.5) out.required = [r.pick(["a", "b"])];
        }
        break;
      case "anyOf":
        if (depth < 2) out.anyOf = [schema(r, depth + 1), schema(r, depth + 1)];
        break;
      default:
        out[r.pick(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"])] = r.pick([0, 1, 1.5, -3]);
    }
  }
  return out;
}

function value(r: ReturnType<typeof random>, depth: number): unknown {
  const roll = r.next();
  if (depth < 2 && roll < 0.25)
    return { a: value(r, depth + 1), ...(r.next() < 0.7 ? { b: value(r, depth + 1) } : {}), ...(r.next() < 0.1 ? { a: undefined } : {}) };
  if (depth < 2 && roll < 0.32) return [value(r, depth + 1)];
  if (roll < 0.36) return undefined;
  return r.pick(SCALARS);
}

describe("the compiled and the interpreted matcher agree with ajv", () => {
  const ajv = new Ajv2020({
    strict: false,
    coerceTypes: false,
    useDefaults: false,
    allErrors: false,
    validateFormats: false,
    unicodeRegExp: true,
    messages: false,
  });

  test("on 1,500 random constraints, 10 inputs each (seeded)", { timeout: 60_000 }, () => {
    const disagreements: string[] = [];
    for (let seed = 1; seed <= 1500; seed++) {
      const r = random(seed);
      const match = { q: schema(r, 0), ...(r.next() < 0.5 ? { z: schema(r, 1) } : {}) } as ToolStubMatch;
      const schemaOfMatch = { type: "object", properties: match, required: Object.keys(match) };
      const validate = ajv.compile(schemaOfMatch);
      ajv.removeSchema(schemaOfMatch);
      const program = compileMatchProgram(match);
      const firstMatch = compileFirstMatch(`seed ${seed}`, [program]);
      for (let i = 0; i < 10; i++) {
        const input = r.next() < 0.9 ? { q: value(r, 0), ...(r.next() < 0.7 ? { z: value(r, 1) } : {}) } : value(r, 0);
        // Inputs here are plain values, patterns safe for V8: ajv's native RegExp is the reference.
        const expected = validate(input);
        if (expected !== (interpretFirstMatch([program], input) === 0))
          disagreements.push(`interpreted, seed ${seed}: ${JSON.stringify(match)} on ${String(JSON.stringify(input))}`);
        if (expected !== (firstMatch(input) === 0))
          disagreements.push(`seed ${seed}: ${JSON.stringify(match)} on ${String(JSON.stringify(input))}`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});
