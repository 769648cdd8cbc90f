import type { InteractionHost } from "../chain/caught.js";
import { StubConfigError } from "../errors.js";
import { classifyTool, describeToolArray } from "./classify-tool.js";
import { qualify } from "./subagent.js";
import { holdExecutor, releaseExecutor, type Executor } from "./tool-spies.js";

/** A record of tools as agents hold them: AI SDK `tool({ inputSchema, execute })` objects or plain functions. */
export type ToolsInput = { readonly [name: string]: unknown };

/** How a session knows one executor: its tool name and the subagent paths it was given at. */
export interface ToolRegistration {
  readonly name: string;
  readonly paths: (readonly string[])[];
}

/** What a session knows of one qualified tool name. */
export interface ToolTraits {
  /** The tool waits for an approval before it runs (AI SDK `needsApproval`). */
  readonly approval: boolean;
  /** Nothing runs here: the app or the provider answers it. */
  readonly noExecutor: boolean;
}

/** The tools of a session: what it can stub, how to find a caught executor, and how to undo the patches. */
export interface BoundTools {
  /** Every tool name the session knows, qualified by its path, with what it knows of each. */
  readonly names: ReadonlyMap<string, ToolTraits>;
  readonly executors: ReadonlyMap<Executor, ToolRegistration>;
  readonly unbind: () => void;
}

/**
 * Patches every executor in `tools` (and in each subagent's tools, at its path) for `host`. Refuses, before
 * anything is patched, any value tooltrace cannot catch, naming it and what to pass instead.
 */
export function bindTools(host: InteractionHost, tools: unknown, subagents: { readonly [path: string]: unknown } | undefined): BoundTools {
  const records: [readonly string[], ToolsInput][] = [];
  if (tools !== undefined) records.push([[], checkRecord(tools, "tools")]);
  for (const [path, record] of Object.entries(subagents ?? {})) records.push([path.split("/").filter(Boolean), checkRecord(record, `subagents.${path}`)]);

  const plan: { owner: object; key: string; name: string; path: readonly string[]; async: boolean; traits: ToolTraits }[] = [];
  const names = new Map<string, ToolTraits>();
  for (const [path, record] of records) {
    for (const [name, value] of Object.entries(record)) {
      const shape = classifyTool(value);
      const where = `${path.length === 0 ? "tools" : `subagents.${path.join("/")}`}.${name}`;
      if (shape.kind === "refused") throw new StubConfigError({ pointer: "" }, `\`${where}\` ${shape.problem}.`, `${shape.fix}.`, "session");
      const traits = { approval: shape.kind === "executor" && shape.approval, noExecutor: shape.kind === "no-executor" };
      names.set(qualify(name, path), traits);
      if (shape.kind === "function") plan.push({ owner: record, key: name, name, path, async: shape.async, traits });
      if (shape.kind === "executor") plan.push({ owner: value as object, key: "execute", name, path, async: true, traits });
    }
  }

  const executors = new Map<Executor, ToolRegistration>();
  const unbind = () => {
    for (const executor of executors.keys()) releaseExecutor(executor, host);
    executors.clear();
  };
  try {
    for (const entry of plan) {
      const executor = holdExecutor(entry.owner, entry.key, qualify(entry.name, entry.path), entry.async, host);
      const known = executors.get(executor);
      if (known) known.paths.push(entry.path);
      else executors.set(executor, { name: entry.name, paths: [entry.path] });
    }
  } catch (error) {
    unbind();
    throw error;
  }
  return { names, executors, unbind };
}

function checkRecord(value: unknown, option: string): ToolsInput {
  if (Array.isArray(value)) {
    throw new StubConfigError(
      { pointer: "" },
      `\`${option}\` is ${describeToolArray(value)}; tooltrace needs a record keyed by tool name, the way the AI SDK takes tools.`,
      "pass `{ list_tasks: listTasks, ... }` (for named tool objects: `Object.fromEntries(tools.map((t) => [t.name, t]))`).",
      "session",
    );
  }
  if (value === null || typeof value !== "object") {
    throw new StubConfigError({ pointer: "" }, `\`${option}\` must be a record of tools, got ${value === null ? "null" : typeof value}.`, "pass `{ list_tasks: listTasks, ... }`.", "session");
  }
  return value as ToolsInput;
}
