import { ajvValidator } from "./ajv-validator.js";
import { compilePattern, type CompiledPattern } from "./pattern/compile-pattern.js";
import type { MatchScalar, ToolStubMatch } from "./types.js";

/** The checks the compiled `match` is made of. */
export const Op = {
  Type: 0,
  Const: 1,
  Enum: 2,
  MinLength: 3,
  MaxLength: 4,
  Minimum: 5,
  Maximum: 6,
  ExclusiveMinimum: 7,
  ExclusiveMaximum: 8,
  Pattern: 9,
  Object: 10,
  Never: 11,
  Ajv: 12,
} as const;
export type Op = (typeof Op)[keyof typeof Op];

/** One bit per JSON Schema type, for `type` checks. */
export const TYPE_BITS = { null: 1, boolean: 2, integer: 4, number: 8, string: 16, array: 32, object: 64 } as const;

/** One check of a compiled constraint (`number`: a bound, the type bits, or 1 for a top-level object). */
export class Check {
  constructor(
    readonly op: Op,
    readonly number: number = 0,
    readonly value: MatchScalar | undefined = undefined,
    readonly values: readonly MatchScalar[] | undefined = undefined,
    readonly pattern: CompiledPattern | undefined = undefined,
    readonly props: readonly Property[] | undefined = undefined,
    readonly validate: ((value: unknown) => boolean) | undefined = undefined,
  ) {}
}

export interface Property {
  readonly name: string;
  readonly checks: readonly Check[];
  /** Listed in `required`: absent (or `undefined`) fails. */
  readonly required: boolean;
}

/** A compiled `match`: the checks an input must pass. */
export type MatchProgram = readonly Check[];

/** Keywords the interpreter runs itself; a schema with any other keyword is handed to ajv whole. */
const INTERPRETED = new Set([
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
  "required",
  "title",
  "description",
]);

/**
 * Compiles a validated `match` into checks, which `compileFirstMatch` writes out as JavaScript. The common
 * constraints (`type`, scalar `const`/`enum`, `pattern`, string and number bounds, nested
 * `properties`/`required`) become direct checks with ajv's exact semantics; a schema using any other keyword
 * (`anyOf`, `items`, `if`, ...) is validated by ajv. Properties are checked cheapest first: every check must
 * pass, so the order cannot change the verdict, only how soon a miss is found.
 */
export function compileMatchProgram(match: ToolStubMatch): MatchProgram {
  return [objectCheck(match, Object.keys(match), true)];
}

function compileSchema(schema: unknown): Check[] {
  if (schema === true) return [];
  if (schema === false) return [new Check(Op.Never)];
  const keywords = schema as Record<string, unknown>;
  if (!Object.keys(keywords).every((keyword) => INTERPRETED.has(keyword))) {
    const validate = ajvValidator(keywords);
    return [new Check(Op.Ajv, 0, undefined, undefined, undefined, undefined, validate)];
  }
  const checks: Check[] = [];
  if (keywords.type !== undefined) {
    const names = Array.isArray(keywords.type) ? (keywords.type as string[]) : [keywords.type as string];
    checks.push(
      new Check(
        Op.Type,
        names.reduce((bits, name) => bits | (TYPE_BITS[name as keyof typeof TYPE_BITS] ?? 0), 0),
      ),
    );
  }
  if ("const" in keywords) checks.push(new Check(Op.Const, 0, keywords.const as MatchScalar));
  if (Array.isArray(keywords.enum)) checks.push(new Check(Op.Enum, 0, undefined, keywords.enum as MatchScalar[]));
  for (const [keyword, op] of [
    ["minLength", Op.MinLength],
    ["maxLength", Op.MaxLength],
    ["minimum", Op.Minimum],
    ["maximum", Op.Maximum],
    ["exclusiveMinimum", Op.ExclusiveMinimum],
    ["exclusiveMaximum", Op.ExclusiveMaximum],
  ] as const) {
    if (typeof keywords[keyword] === "number") checks.push(new Check(op, keywords[keyword] as number));
  }
  if (typeof keywords.pattern === "string") checks.push(new Check(Op.Pattern, 0, undefined, undefined, compilePattern(keywords.pattern)));
  if (keywords.properties !== undefined || keywords.required !== undefined) {
    checks.push(objectCheck((keywords.properties ?? {}) as Record<string, unknown>, (keywords.required ?? []) as string[]));
  }
  return checks;
}

/** `properties` and `required`; `topLevel`: the input itself must be an object (a `match` is per property). */
function objectCheck(properties: Record<string, unknown>, required: readonly string[], topLevel = false): Check {
  const names = new Set([...Object.keys(properties), ...required]);
  const props = [...names]
    .map((name) => ({ name, checks: name in properties ? compileSchema(properties[name]) : [], required: required.includes(name) }))
    .filter((property) => property.checks.length > 0 || property.required)
    .sort((a, b) => cost(a) - cost(b));
  return new Check(Op.Object, topLevel ? 1 : 0, undefined, undefined, undefined, props);
}

/** A rough cost of checking a property, to try the cheap ones first (a bare `required` costs one lookup). */
function cost(property: Property): number {
  return property.checks.reduce(
    (sum, check) => sum + (check.op === Op.Ajv ? 50 : check.op === Op.Object ? 20 : check.op === Op.Pattern ? 10 : 1),
    0,
  );
}
