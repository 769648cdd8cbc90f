import type { Fault } from "../faults/types.js";
/** A JSON Schema type name accepted in a `match` constraint. */
export type MatchJsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

/** A scalar allowed in `const` and `enum`. Objects and arrays are refused: use nested `properties` or `items`. */
export type MatchScalar = string | number | boolean | null;

/**
 * One constraint of a stub's `match`: the reference-free JSON Schema 2020-12 subset tooltrace supports.
 * Anything outside this list (`$ref`, `format`, `patternProperties`, `multipleOf`, `uniqueItems`, ...)
 * is refused when the session is created.
 */
export type MatchSchema =
  | boolean
  | {
      readonly type?: MatchJsonType | readonly MatchJsonType[];
      readonly const?: MatchScalar;
      readonly enum?: readonly MatchScalar[];
      readonly pattern?: string;
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly exclusiveMinimum?: number;
      readonly exclusiveMaximum?: number;
      readonly items?: MatchSchema;
      readonly prefixItems?: readonly MatchSchema[];
      readonly contains?: MatchSchema;
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly properties?: { readonly [name: string]: MatchSchema };
      readonly required?: readonly string[];
      readonly additionalProperties?: MatchSchema;
      readonly minProperties?: number;
      readonly maxProperties?: number;
      readonly allOf?: readonly MatchSchema[];
      readonly anyOf?: readonly MatchSchema[];
      readonly oneOf?: readonly MatchSchema[];
      readonly not?: MatchSchema;
      readonly if?: MatchSchema;
      readonly then?: MatchSchema;
      readonly else?: MatchSchema;
      readonly title?: string;
      readonly description?: string;
    };

/** Per-property input constraints of a rule. Every listed property must exist; extra properties are allowed. */
/** Constraints by input property. `undefined` entries are allowed so that an array of rules with different keys type-checks (TypeScript widens each to `key?: undefined`); they constrain nothing. */
export type ToolStubMatch = { readonly [property: string]: MatchSchema | undefined };

/** The error a `throw` outcome raises: an ordinary `Error` with this name (default `"Error"`) and message. */
export interface ToolStubThrow {
  readonly name?: string;
  readonly message: string;
}

/** One outcome: exactly one of `response` (the JSON the tool returns) or `throw` (the error it raises). */
export type ToolStubOutcome =
  | { readonly response: unknown; readonly throw?: never }
  | { readonly throw: ToolStubThrow; readonly response?: never };

/** What every stub rule has: its id, its tool, and what calls it matches. */
export interface ToolStubBase {
  /** Session-unique rule id. It tracks this rule's sequence position; it is not a tool name or a call id. */
  readonly id: string;
  /** The tool's name, optionally qualified by its subagent path (`researcher/list_tasks`). */
  readonly tool: string;
  /** Input-property constraints. Omit it or use `{}` to match any input. */
  readonly match?: ToolStubMatch;
  /**
   * Faults on the calls this rule matches, before its outcomes (which keep their place for the retry): a
   * tool's API failing as HTTP clients report it (`status` 429 with `retryAfter`, 5xx), a dropped connection,
   * a malformed body, a slow answer. `calls` counts the calls this rule matched.
   */
  readonly faults?: readonly Fault[];
}

/**
 * A tool stub rule: plain JSON that can live in a fixture file and be shared between tests.
 *
 * @example
 * ```ts
 * const stubs = [
 *   { id: "milk", tool: "complete_task", match: { task_id: { const: "milk" } }, outcome: { response: { success: true } } },
 *   { id: "tasks", tool: "list_tasks", outcomes: [{ throw: { message: "timed out" } }, { response: { tasks: [] } }] },
 * ] satisfies readonly ToolStub[];
 * ```
 */
export type ToolStub = ToolStubBase &
  (
    | { readonly outcome: ToolStubOutcome; readonly outcomes?: never }
    | { readonly outcomes: readonly ToolStubOutcome[]; readonly outcome?: never }
  );
