import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { BoundedCache } from "../base/bounded-cache.js";
import { lazyRequire } from "../base/lazy-require.js";
import { compilePattern } from "./pattern/compile-pattern.js";

const ajvModule = lazyRequire<typeof import("ajv/dist/2020.js")>("ajv/dist/2020.js");
let shared: Ajv2020 | undefined;
/** Validators by the JSON of their schema, shared by every session. */
const compiled = new BoundedCache<string, ValidateFunction>(1000);

/** ajv's pattern engine: linear-time matching for every `pattern` (see `compilePattern`). */
const regExp = Object.assign((pattern: string) => compilePattern(pattern), { code: "tooltraceLinearRegExp" });

function ajv(): Ajv2020 {
  // No coercion, no defaults: matching never changes the arguments the real tool or the stub sees.
  shared ??= new (ajvModule().Ajv2020)({
    strict: false,
    coerceTypes: false,
    useDefaults: false,
    allErrors: false,
    validateFormats: false,
    unicodeRegExp: true,
    messages: false,
    code: { regExp },
  });
  return shared;
}

/** An ajv validator for a validated (sub)schema, compiled once per distinct schema in the process. */
export function ajvValidator(schema: object): (value: unknown) => boolean {
  const run = compiled.getOrCreate(JSON.stringify(schema), () => {
    const validate = ajv().compile(schema);
    // ajv keeps every compiled schema too; forget it there, or the bound here would not bound anything.
    ajv().removeSchema(schema);
    return validate;
  });
  return (value) => run(value) === true;
}
