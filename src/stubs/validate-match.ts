import { StubConfigError, pointerToken, type ConfigErrorLocation } from "../exits/errors.js";
import { excerpt } from "../exits/excerpt.js";
import { STUB_LIMITS } from "./limits.js";
import { compilePattern, PatternRefused } from "./pattern/compile-pattern.js";

const TYPE_NAMES = new Set(["null", "boolean", "integer", "number", "string", "array", "object"]);
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

const SCHEMA_KEYWORDS = new Set(["items", "contains", "additionalProperties", "not", "if", "then", "else"]);
const SCHEMA_ARRAY_KEYWORDS = new Set(["prefixItems", "allOf", "anyOf", "oneOf"]);
const COUNT_KEYWORDS = new Set(["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]);
const NUMBER_KEYWORDS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]);
const TEXT_KEYWORDS = new Set(["title", "description"]);

const REFUSED: Readonly<Record<string, string>> = {
  patternProperties: "list the properties by name under `properties`",
  format: "use `pattern` with a regular expression",
  multipleOf: "use `minimum`/`maximum`, or `enum` with the accepted values",
  minContains: "use `contains` (at least one item) or split the rule",
  maxContains: "use `contains` (at least one item) or split the rule",
  uniqueItems: "match particular items with `contains` or `prefixItems`",
  dependencies: "use `if`/`then` with `required`",
  dependentRequired: "use `if`/`then` with `required`",
  dependentSchemas: "use `if`/`then`",
  unevaluatedProperties: "use `additionalProperties`",
  unevaluatedItems: "use `items`",
  propertyNames: "list the properties by name under `properties`",
};

/** Validates one rule's `match` against the supported subset; throws a `StubConfigError` at the first fault. */
export function validateMatch(match: unknown, location: Omit<ConfigErrorLocation, "pointer">): void {
  const at = (pointer: string) => ({ ...location, pointer });
  if (!isPlainObject(match)) {
    throw new StubConfigError(
      at("/match"),
      `\`match\` must be an object of per-property constraints, got ${describe(match)}.`,
      'write e.g. `match: { task_id: { const: "milk" } }`, or omit it to match any input.',
    );
  }
  if (looksLikeWholeSchema(match)) {
    throw new StubConfigError(
      at("/match"),
      '`match` lists constraints per input property, but this looks like a whole JSON Schema (`type: "object"` with `properties`).',
      `write the properties themselves: \`match: ${truncate(JSON.stringify(match.properties), 80)}\` (every listed property must exist).`,
    );
  }
  for (const [name, schema] of Object.entries(match)) {
    const here = `/match/${pointerToken(name)}`;
    if (INHERITED_NAMES.has(name)) throw inheritedName(name, at(here));
    validateSchema(schema, here, at);
  }
}

function validateSchema(schema: unknown, pointer: string, at: (p: string) => ConfigErrorLocation): void {
  if (typeof schema === "boolean") return;
  if (!isPlainObject(schema)) {
    throw new StubConfigError(
      at(pointer),
      `a constraint must be a JSON Schema object or a boolean, got ${describe(schema)}.`,
      'wrap values in a keyword, e.g. `{ "const": "milk" }`.',
    );
  }
  for (const [keyword, value] of Object.entries(schema)) {
    const here = `${pointer}/${pointerToken(keyword)}`;
    if (keyword.startsWith("$")) {
      throw new StubConfigError(
        at(here),
        `\`${keyword}\` is not supported: match constraints are reference-free.`,
        "write the constraint inline.",
      );
    }
    const refusal = REFUSED[keyword];
    if (refusal !== undefined) {
      throw new StubConfigError(at(here), `the keyword \`${keyword}\` is not supported in match constraints.`, `${refusal}.`);
    }
    if (SCHEMA_KEYWORDS.has(keyword)) {
      validateSchema(value, here, at);
    } else if (SCHEMA_ARRAY_KEYWORDS.has(keyword)) {
      if (!Array.isArray(value) || value.length === 0) {
        throw new StubConfigError(at(here), `\`${keyword}\` must be a non-empty array of constraints.`);
      }
      if (value.length > STUB_LIMITS.branches)
        throw new StubConfigError(
          at(here),
          `\`${keyword}\` holds ${value.length} constraints; one holds at most ${STUB_LIMITS.branches}.`,
          keyword === "anyOf" || keyword === "oneOf" ? "list the accepted values in one `enum`, or split the rule." : "split the rule.",
        );
      for (const [i, item] of value.entries()) validateSchema(item, `${here}/${i}`, at);
    } else if (keyword === "properties") {
      if (!isPlainObject(value)) throw new StubConfigError(at(here), "`properties` must be an object of constraints.");
      for (const [name, sub] of Object.entries(value)) {
        const property = `${here}/${pointerToken(name)}`;
        if (INHERITED_NAMES.has(name)) throw inheritedName(name, at(property));
        validateSchema(sub, property, at);
      }
    } else if (keyword === "required") {
      if (!Array.isArray(value) || value.some((name) => typeof name !== "string")) {
        throw new StubConfigError(at(here), "`required` must be an array of property names.");
      }
      (value as string[]).forEach((name, i) => {
        if (INHERITED_NAMES.has(name)) throw inheritedName(name, at(`${here}/${i}`));
      });
    } else if (keyword === "type") {
      const names = Array.isArray(value) ? value : [value];
      const bad = names.find((name) => typeof name !== "string" || !TYPE_NAMES.has(name));
      if (bad !== undefined || names.length === 0) {
        throw new StubConfigError(at(here), `unknown type ${JSON.stringify(bad)}.`, `use one of ${[...TYPE_NAMES].join(", ")}.`);
      }
      if (new Set(names).size !== names.length) throw new StubConfigError(at(here), "`type` lists a type twice.", "list each type once.");
    } else if (keyword === "const") {
      if (!isScalar(value)) throw notScalar(value, at(here), keyword);
    } else if (keyword === "enum") {
      if (!Array.isArray(value) || value.length === 0) throw new StubConfigError(at(here), "`enum` must be a non-empty array.");
      if (value.length > STUB_LIMITS.enumValues)
        throw new StubConfigError(
          at(here),
          `\`enum\` holds ${value.length} values; one holds at most ${STUB_LIMITS.enumValues}.`,
          "split the rule, or use `pattern`.",
        );
      value.forEach((item, i) => {
        if (!isScalar(item)) throw notScalar(item, at(`${here}/${i}`), keyword);
      });
    } else if (keyword === "pattern") {
      checkPattern(value, () => at(here));
    } else if (COUNT_KEYWORDS.has(keyword)) {
      if (!Number.isInteger(value) || (value as number) < 0) {
        throw new StubConfigError(at(here), `\`${keyword}\` must be a non-negative integer, got ${describe(value)}.`);
      }
    } else if (NUMBER_KEYWORDS.has(keyword)) {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new StubConfigError(at(here), `\`${keyword}\` must be a finite number, got ${describe(value)}.`);
      }
    } else if (TEXT_KEYWORDS.has(keyword)) {
      if (typeof value !== "string") throw new StubConfigError(at(here), `\`${keyword}\` must be a string.`);
    } else {
      throw new StubConfigError(
        at(here),
        `unknown keyword \`${keyword}\` in a match constraint.`,
        "use the supported subset: type, const, enum, pattern, min/maxLength, minimum/maximum, items, prefixItems, contains, min/maxItems, properties, required, additionalProperties, allOf, anyOf, oneOf, not, if/then/else. To constrain a nested property, put it under `properties`.",
      );
    }
  }
}

// The refusals below are built only when a rule is refused: most rules pass, and their pointers are not needed.
function inheritedName(name: string, location: ConfigErrorLocation): StubConfigError {
  return new StubConfigError(
    location,
    `the property name "${name}" is inherited from Object.prototype and cannot be matched.`,
    "match a parent object with `properties` on its other fields, or rename the property in the tool's input.",
  );
}

function isScalar(value: unknown): boolean {
  const type = typeof value;
  return value === null || type === "string" || type === "boolean" || (type === "number" && Number.isFinite(value));
}

function notScalar(value: unknown, location: ConfigErrorLocation, keyword: string): StubConfigError {
  return new StubConfigError(
    location,
    `\`${keyword}\` accepts only strings, numbers, booleans and null, got ${describe(value)}.`,
    "match structured values with nested `properties` or array `items`/`contains`.",
  );
}

function checkPattern(value: unknown, at: () => ConfigErrorLocation): void {
  if (typeof value !== "string") throw new StubConfigError(at(), "`pattern` must be a string.");
  if (value.length > STUB_LIMITS.patternLength)
    throw new StubConfigError(
      at(),
      `a pattern of ${value.length} characters (${JSON.stringify(excerpt(value, 40))}); patterns are at most ${STUB_LIMITS.patternLength}.`,
      "match a prefix or a shape (`^order-`), or list the values in `enum`.",
    );
  try {
    compilePattern(value);
  } catch (error) {
    if (error instanceof PatternRefused) throw new StubConfigError(at(), error.message, error.fix);
    throw error;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an object (${(value as object).constructor?.name ?? "no prototype"})`;
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === undefined) return "undefined";
  return `${typeof value} ${String(value)}`;
}

/** `{ type: "object", properties: {...} }`: a whole schema written where per-property constraints go. */
function looksLikeWholeSchema(match: Record<string, unknown>): boolean {
  return match.type === "object" && isPlainObject(match.properties);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
