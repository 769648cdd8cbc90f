import { codePoints } from "./code-points.js";
import { Op, TYPE_BITS, type Check, type MatchProgram, type Property } from "./match-program.js";
import type { CompiledPattern } from "./pattern/compile-pattern.js";

/**
 * Runs checks directly, with the same semantics as the compiled form (`match-codegen.ts`). Used for a rule
 * list's first calls: most sessions make a few calls, and compiling a function they would run cold costs more
 * than it saves.
 */
export function interpretFirstMatch(programs: readonly MatchProgram[], input: unknown): number {
  for (let i = 0; i < programs.length; i++) if (passes(programs[i] as MatchProgram, input)) return i;
  return -1;
}

function passes(checks: readonly Check[], value: unknown): boolean {
  for (let i = 0; i < checks.length; i++) {
    const check = checks[i] as Check;
    switch (check.op) {
      case Op.Type:
        if ((typeBits(value) & check.number) === 0) return false;
        break;
      case Op.Const:
        if (value !== check.value) return false;
        break;
      case Op.Enum:
        if (!(check.values as readonly unknown[]).includes(value)) return false;
        break;
      case Op.MinLength:
        if (typeof value === "string" && codePoints(value) < check.number) return false;
        break;
      case Op.MaxLength:
        if (typeof value === "string" && codePoints(value) > check.number) return false;
        break;
      case Op.Minimum:
        if (typeof value === "number" && (value < check.number || Number.isNaN(value))) return false;
        break;
      case Op.Maximum:
        if (typeof value === "number" && (value > check.number || Number.isNaN(value))) return false;
        break;
      case Op.ExclusiveMinimum:
        if (typeof value === "number" && (value <= check.number || Number.isNaN(value))) return false;
        break;
      case Op.ExclusiveMaximum:
        if (typeof value === "number" && (value >= check.number || Number.isNaN(value))) return false;
        break;
      case Op.Pattern: {
        const pattern = check.pattern as CompiledPattern;
        if (typeof value === "string" && (!value.startsWith(pattern.prefix) || !pattern.test(value))) return false;
        break;
      }
      case Op.Object:
        if (!objectPasses(check, value)) return false;
        break;
      case Op.Never:
        return false;
      case Op.Ajv:
        if (!(check.validate as (value: unknown) => boolean)(value)) return false;
        break;
    }
  }
  return true;
}

/** `properties` and `required`, as ajv applies them: only to objects; a property set to `undefined` is missing. */
function objectPasses(check: Check, value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return check.number === 0;
  const record = value as Record<string, unknown>;
  const props = check.props as readonly Property[];
  for (let i = 0; i < props.length; i++) {
    const property = props[i] as Property;
    const item = record[property.name];
    if (item === undefined) {
      if (property.required) return false;
    } else if (!passes(property.checks, item)) {
      return false;
    }
  }
  return true;
}

/** ajv's types as bits; its integer is `!(n % 1) && !isNaN(n)`, so Infinity counts. */
function typeBits(value: unknown): number {
  switch (typeof value) {
    case "string":
      return TYPE_BITS.string;
    case "boolean":
      return TYPE_BITS.boolean;
    case "number":
      return !(value % 1) && !Number.isNaN(value) ? TYPE_BITS.integer | TYPE_BITS.number : TYPE_BITS.number;
    case "object":
      return value === null ? TYPE_BITS.null : Array.isArray(value) ? TYPE_BITS.array : TYPE_BITS.object;
    default:
      return 0;
  }
}
