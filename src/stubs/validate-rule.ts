import { StubConfigError, pointerOf, pointerToken, type ConfigErrorLocation } from "../exits/errors.js";
import type { ToolStubOutcome, ToolStubMatch } from "./types.js";
import { faultListProblem } from "../faults/check-faults.js";
import type { Fault } from "../faults/types.js";
import { describe, isPlainObject, validateMatch } from "./validate-match.js";

const RULE_FIELDS = new Set(["id", "tool", "match", "outcome", "outcomes", "faults"]);

/** A rule after validation: outcomes always a non-empty array, the tool split into path and name. */
export interface NormalizedRule {
  readonly id: string;
  readonly index: number;
  /** The rule's `tool` as written (`researcher/list_tasks`). */
  readonly qualifiedTool: string;
  readonly match: ToolStubMatch | undefined;
  readonly outcomes: readonly ToolStubOutcome[];
  /** True when the rule used `outcome` (one entry that repeats). */
  readonly repeats: boolean;
  readonly faults: readonly Fault[] | undefined;
}

/** Validates the shape of one rule (not its tool name, which needs the session's tools). */
export function validateRule(rule: unknown, index: number): NormalizedRule {
  if (!isPlainObject(rule)) {
    throw new StubConfigError({ ruleIndex: index, pointer: "" }, `a rule must be an object, got ${describe(rule)}.`);
  }
  const id = rule.id;
  if (typeof id !== "string" || id === "") {
    throw new StubConfigError({ ruleIndex: index, pointer: "/id" }, "every rule needs a non-empty string `id`.", 'add e.g. `id: "tasks"`.');
  }
  const at = (pointer: string): ConfigErrorLocation => ({ ruleId: id, ruleIndex: index, pointer });

  if ("response" in rule || "responses" in rule) {
    const field = "response" in rule ? "response" : "responses";
    throw new StubConfigError(
      at(`/${field}`),
      `a top-level \`${field}\` is not accepted.`,
      field === "response" ? "write `outcome: { response: ... }`." : "write `outcomes: [{ response: ... }, { response: ... }]`.",
    );
  }
  for (const key of Object.keys(rule)) {
    if (!RULE_FIELDS.has(key)) {
      throw new StubConfigError(
        at(`/${pointerToken(key)}`),
        `unknown field \`${key}\`.`,
        "a rule has only id, tool, match, outcome or outcomes, and faults.",
      );
    }
  }
  const tool = rule.tool;
  if (typeof tool !== "string" || tool === "" || tool.split("/").some((part) => part === "")) {
    throw new StubConfigError(
      at("/tool"),
      `\`tool\` must be a tool name, optionally path-qualified (\`researcher/list_tasks\`), got ${describe(tool)}.`,
    );
  }
  if (rule.match !== undefined) validateMatch(rule.match, { ruleId: id, ruleIndex: index });

  const hasOutcome = "outcome" in rule;
  const hasOutcomes = "outcomes" in rule;
  if (hasOutcome === hasOutcomes) {
    throw new StubConfigError(
      at(""),
      hasOutcome ? "both `outcome` and `outcomes` are set." : "neither `outcome` nor `outcomes` is set.",
      "use `outcome` for one repeated outcome, or `outcomes` for a sequence.",
    );
  }
  let outcomes: ToolStubOutcome[];
  if (hasOutcome) {
    outcomes = [validateOutcome(rule.outcome, at("/outcome"))];
  } else {
    if (!Array.isArray(rule.outcomes) || rule.outcomes.length === 0) {
      throw new StubConfigError(at("/outcomes"), "`outcomes` must be a non-empty array.", "use `outcome` for a single outcome.");
    }
    outcomes = rule.outcomes.map((outcome, i) => validateOutcome(outcome, at(`/outcomes/${i}`)));
  }
  const faults = rule.faults as readonly Fault[] | undefined;
  const problem = faults === undefined ? undefined : faultListProblem(faults);
  if (problem !== undefined) throw new StubConfigError(at(`/faults${problem.pointer}`), `${problem.problem}.`, problem.fix);
  return {
    id,
    index,
    qualifiedTool: tool,
    match: rule.match as ToolStubMatch | undefined,
    outcomes,
    repeats: hasOutcome,
    faults,
  };
}

function validateOutcome(outcome: unknown, location: ConfigErrorLocation): ToolStubOutcome {
  if (!isPlainObject(outcome)) {
    throw new StubConfigError(
      location,
      `an outcome must be an object, got ${describe(outcome)}.`,
      "write `{ response: ... }` or `{ throw: { message } }`.",
    );
  }
  const keys = Object.keys(outcome);
  const hasResponse = keys.includes("response");
  const hasThrow = keys.includes("throw");
  if (hasResponse === hasThrow || keys.length !== 1) {
    throw new StubConfigError(
      location,
      `an outcome holds exactly one of \`response\` or \`throw\`, got keys [${keys.join(", ")}].`,
      "write `{ response: ... }` or `{ throw: { message } }`.",
    );
  }
  if (hasResponse) {
    checkJson(outcome.response, { ...location, pointer: `${location.pointer}/response` });
    return { response: outcome.response };
  }
  const spec = outcome.throw;
  const at = { ...location, pointer: `${location.pointer}/throw` };
  if (!isPlainObject(spec) || typeof spec.message !== "string") {
    throw new StubConfigError(
      at,
      "`throw` needs a string `message`.",
      'write `throw: { name: "TimeoutError", message: "Task service timed out" }`.',
    );
  }
  for (const key of Object.keys(spec)) {
    if (key !== "name" && key !== "message")
      throw new StubConfigError(
        { ...at, pointer: `${at.pointer}/${pointerToken(key)}` },
        `unknown field \`${key}\`; \`throw\` has only name and message.`,
      );
  }
  if (spec.name !== undefined && (typeof spec.name !== "string" || spec.name === "")) {
    throw new StubConfigError({ ...at, pointer: `${at.pointer}/name` }, "`throw.name` must be a non-empty string.");
  }
  return { throw: spec.name === undefined ? { message: spec.message } : { name: spec.name, message: spec.message } };
}

function checkJson(value: unknown, location: ConfigErrorLocation): void {
  const path: string[] = [];
  const bad = firstNotJson(value, path);
  if (bad === NONE) return;
  // The pointer is worked out only for a value that is refused: most responses are checked and pass.
  const at = { ...location, pointer: location.pointer + pointerOf(path) };
  if (typeof bad === "number") throw new StubConfigError(at, `${bad} is not JSON.`, "use a finite number or a string.");
  throw new StubConfigError(
    at,
    `a response must be plain JSON, got ${describe(bad)}.`,
    "convert it to JSON (dates to ISO strings, maps to objects).",
  );
}

const NONE = Symbol("none");

/** The first value in `value` that is not JSON, with `path` left pointing at it; {@link NONE} when all of it is. */
function firstNotJson(value: unknown, path: string[]): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return NONE;
  if (typeof value === "number") return Number.isFinite(value) ? NONE : value;
  const array = Array.isArray(value);
  if (!array && !isPlainObject(value)) return value;
  for (const key of Object.keys(value as object)) {
    path.push(key);
    const bad = firstNotJson((value as Record<string, unknown>)[key], path);
    if (bad !== NONE) return bad;
    path.pop();
  }
  return NONE;
}
