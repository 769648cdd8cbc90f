import { urlMatches } from "../../src/http-mocks/url-pattern.js";
import { compactJson } from "../../src/exits/excerpt.js";
import { usageError } from "../../src/exits/errors.js";
import { jsonDifferences, type JsonDifference } from "../../src/trace/json-diff.js";
import type { HttpCall, InteractionStatus, ModelCall, ToolCall, Turn } from "../../src/trace/types.js";
import type { MatcherContext } from "./matcher-context.js";
import { describeExpected, testersOf } from "./match-value.js";

/**
 * One expected step of a trajectory: a tool name, a tool call with its input and output, a model call, or an
 * HTTP request. Model calls and HTTP requests take part only when the expected trajectory lists one.
 */
export type TrajectoryStep =
  | string
  | { readonly tool: string; readonly input?: unknown; readonly output?: unknown; readonly status?: InteractionStatus }
  | { readonly model: true | string | RegExp; readonly text?: string | RegExp; readonly toolCalls?: readonly string[] }
  | { readonly http: string | RegExp; readonly method?: string; readonly status?: number };

/**
 * How a listed input or output is compared, named as agentevals names its argument modes: `exact` (the
 * runner's deep equality: every key, asymmetric matchers, RegExps and predicates allowed), `superset` (the
 * actual arguments hold at least the expected ones: `toMatchObject`'s semantics), `subset` (the actual
 * arguments hold nothing beyond the expected ones), `ignore`, or your own `(actual, expected) => boolean`.
 */
export type ArgumentsMode = "exact" | "superset" | "subset" | "ignore" | ((actual: unknown, expected: unknown) => boolean);

/** An expected step read into one shape. */
export interface ExpectedStep {
  readonly kind: "tool" | "model" | "http";
  /** What two steps must share to be paired at all: `tool:name`, `model`, `http:GET`. */
  readonly key: string;
  readonly label: string;
  readonly step: Exclude<TrajectoryStep, string>;
}

/** A recorded call in a trajectory. */
export type ActualStep = ToolCall | ModelCall | HttpCall;

export function readExpectedSteps(matcher: string, expected: unknown): ExpectedStep[] {
  if (!Array.isArray(expected))
    throw usageError(`${matcher}(expected): \`expected\` is an array of tool names, { tool, input?, output? }, { model } or { http }.`);
  return expected.map((entry: unknown, i) => {
    if (typeof entry === "string") return { kind: "tool", key: `tool:${entry}`, label: entry, step: { tool: entry } };
    if (entry !== null && typeof entry === "object") {
      const step = entry as Record<string, unknown>;
      if (typeof step.tool === "string") {
        const tool = step as { tool: string; input?: unknown; output?: unknown };
        const parts = [
          tool.tool,
          "input" in tool ? describeExpected(tool.input) : "",
          "output" in tool ? `→ ${describeExpected(tool.output)}` : "",
        ];
        return { kind: "tool", key: `tool:${tool.tool}`, label: parts.filter(Boolean).join(" "), step: tool };
      }
      if (step.model === true || typeof step.model === "string" || step.model instanceof RegExp)
        return {
          kind: "model",
          key: "model",
          label: `model ${step.model === true ? "call" : describeExpected(step.model)}`,
          step: step as ExpectedStep["step"],
        };
      if (typeof step.http === "string" || step.http instanceof RegExp) {
        const method = typeof step.method === "string" ? step.method.toUpperCase() : undefined;
        return { kind: "http", key: "http", label: `${method ?? "HTTP"} ${String(step.http)}`, step: step as ExpectedStep["step"] };
      }
    }
    throw usageError(`${matcher}: step ${i} must be a tool name, { tool }, { model } or { http }; got ${compactJson(entry, 60)}.`);
  });
}

/** The recorded calls of these turns that the expected steps speak of, in the order they started. */
export function actualSteps(turns: readonly Turn[], expected: readonly ExpectedStep[]): ActualStep[] {
  const models = expected.some((step) => step.kind === "model");
  const http = expected.some((step) => step.kind === "http");
  return turns.flatMap((turn) => {
    const steps: ActualStep[] = [...turn.toolCalls];
    if (models) steps.push(...turn.modelCalls);
    if (http) steps.push(...(turn.httpCalls ?? []));
    return steps.sort((a, b) => a.seq - b.seq);
  });
}

export function keyOf(step: ActualStep): string {
  return step.kind === "tool" ? `tool:${step.qualifiedName}` : step.kind;
}

export function describeActual(step: ActualStep): string {
  if (step.kind === "tool") {
    const result = step.status === "completed" ? compactJson(step.output, 40) : step.status;
    return `${step.qualifiedName}(${compactJson(step.input, 40)}) → ${result}`;
  }
  if (step.kind === "model")
    return `model ${step.model}${step.reply.toolCalls.length > 0 ? ` → ${step.reply.toolCalls.map((c) => c.name).join(", ")}` : ""}`;
  return `${step.method} ${step.url} → ${step.statusCode ?? step.status}`;
}

/** Whether an actual step fits an expected one, and if it does not, where it differs. */
export interface StepFit {
  readonly fits: boolean;
  readonly differences: readonly JsonDifference[];
}

const FITS: StepFit = { fits: true, differences: [] };

export function fitStep(context: MatcherContext, args: ArgsFor, expected: ExpectedStep, actual: ActualStep): StepFit {
  if (expected.key !== keyOf(actual)) return { fits: false, differences: [] };
  const step = expected.step as Record<string, unknown>;
  const differences: JsonDifference[] = [];
  const compare = (field: string, want: unknown, got: unknown, mode: ArgumentsMode) => {
    if (compareValue(context, mode, want, got)) return;
    // Under `superset` the actual may hold more: what it added is no difference; under `subset`, what it left out.
    const found = jsonDifferences(want, got, 5).filter(
      (d) => !(mode === "superset" && d.kind === "added") && !(mode === "subset" && d.kind === "removed"),
    );
    differences.push(
      ...(found.length > 0 ? found : [{ pointer: "", kind: "changed" as const, expected: want, actual: got }]).map((d) => ({
        ...d,
        pointer: `/${field}${d.pointer === "/" ? "" : d.pointer}`,
      })),
    );
  };
  if (actual.kind === "tool") {
    const mode = args(actual.qualifiedName);
    if ("input" in step) compare("input", step.input, actual.input, mode);
    if ("output" in step) compare("output", step.output, actual.output, mode);
    if (step.status !== undefined) compare("status", step.status, actual.status, "exact");
  } else if (actual.kind === "model") {
    if (step.model !== true) compare("model", step.model, actual.model, "exact");
    if (step.text !== undefined) compare("text", step.text, actual.reply.text, "exact");
    if (step.toolCalls !== undefined)
      compare(
        "toolCalls",
        step.toolCalls,
        actual.reply.toolCalls.map((c) => c.name),
        "exact",
      );
  } else {
    if (!urlMatches(step.http as string | RegExp, actual.url, "whole URL"))
      differences.push({ pointer: "/url", kind: "changed", expected: String(step.http), actual: actual.url });
    if (typeof step.method === "string") compare("method", step.method.toUpperCase(), actual.method, "exact");
    if (step.status !== undefined) compare("status", step.status, actual.statusCode, "exact");
  }
  return differences.length === 0 ? FITS : { fits: false, differences };
}

/** The arguments mode of each tool. */
export type ArgsFor = (tool: string) => ArgumentsMode;

export function argsFor(matcher: string, option: ArgumentsMode | { readonly [tool: string]: ArgumentsMode } | undefined): ArgsFor {
  const check = (mode: unknown, where: string): ArgumentsMode => {
    if (mode === "exact" || mode === "superset" || mode === "subset" || mode === "ignore" || typeof mode === "function")
      return mode as ArgumentsMode;
    throw usageError(`${matcher}: ${where} must be "exact", "superset", "subset", "ignore" or a function (actual, expected) => boolean.`);
  };
  if (option === undefined) return () => "exact";
  if (typeof option === "string" || typeof option === "function") {
    const mode = check(option, "`args`");
    return () => mode;
  }
  const modes = new Map(Object.entries(option).map(([tool, mode]) => [tool, check(mode, `\`args.${tool}\``)]));
  const fallback = modes.get("*") ?? "exact";
  return (tool) => modes.get(tool) ?? fallback;
}

function compareValue(context: MatcherContext, mode: ArgumentsMode, expected: unknown, actual: unknown): boolean {
  if (mode === "ignore") return true;
  if (typeof mode === "function") return Boolean(mode(actual, expected));
  const testers = testersOf(context);
  // `exact` keeps the extras, the user's testers and iterable equality, and leaves out the subset tester;
  // `subset` is `superset` with the sides swapped: the expected arguments must hold the actual ones.
  if (mode === "exact") return context.equals(actual, expected, testers.slice(0, -1));
  return mode === "superset" ? context.equals(actual, expected, testers) : context.equals(expected, actual, testers);
}
