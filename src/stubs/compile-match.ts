import { Ajv2020 } from "ajv/dist/2020.js";
import type { ToolStubMatch } from "./types.js";

/** A compiled `match`: true when the input satisfies every listed property. */
export type InputPredicate = (input: unknown) => boolean;

let shared: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  // No coercion, no defaults: matching never changes the arguments the real tool or the stub sees.
  shared ??= new Ajv2020({ strict: false, coerceTypes: false, useDefaults: false, allErrors: false, validateFormats: false, unicodeRegExp: true });
  return shared;
}

/** Compiles a validated `match` once; `undefined` or `{}` matches any input. */
export function compileMatch(match: ToolStubMatch | undefined): InputPredicate {
  if (match === undefined || Object.keys(match).length === 0) return () => true;
  const validate = ajv().compile({ type: "object", properties: match, required: Object.keys(match) });
  return (input) => validate(input) === true;
}
