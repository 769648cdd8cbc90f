import type { InteractionHost } from "../pipeline/caught.js";
import { StubConfigError } from "../base/errors.js";
import { agentsSdkHandoff, agentsSdkInvoke, inputFirst, langchainCall, mcpCallTool, type CallShape } from "./call-shapes.js";
import { classifyTool, describeToolArray, namedToolsOf } from "./classify-tool.js";
import { qualify, samePath, splitPath } from "./subagent.js";
import { holdExecutor, releaseExecutor, type Executor } from "./tool-spies.js";

/**
 * The tools as the agent holds them: a record keyed by tool name of AI SDK `tool()` objects, plain functions,
 * LangChain tools or OpenAI Agents SDK function tools; or an array of LangChain or Agents SDK tools, which
 * carry their names.
 */
export type ToolsInput = { readonly [name: string]: unknown } | readonly unknown[];

/** How a session knows one executor: its tool name and the subagent paths it was given at. */
export interface ToolRegistration {
  readonly name: string;
  readonly paths: (readonly string[])[];
  /** For an executor serving several tools (an MCP client): the session's name of each tool it serves. */
  readonly aliases?: Map<string, string>;
}

/** What a session knows of one qualified tool name. */
export interface ToolTraits {
  /** The tool waits for an approval before it runs (AI SDK `needsApproval`). */
  readonly approval: boolean;
  /** Nothing runs here: the app or the provider answers it. */
  readonly noExecutor: boolean;
  /** An OpenAI Agents SDK handoff: traced, but no stub may answer it (the SDK needs the agent it hands to). */
  readonly handoff: boolean;
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
  const records: [readonly string[], { readonly [name: string]: unknown }][] = [];
  if (tools !== undefined) records.push([[], checkRecord(tools, "tools")]);
  for (const [path, record] of Object.entries(subagents ?? {})) records.push([splitPath(path), checkRecord(record, `subagents.${path}`)]);

  const plan: {
    owner: object;
    key: string;
    name: string;
    path: readonly string[];
    async: boolean;
    shape: CallShape;
    remoteName?: string;
  }[] = [];
  const names = new Map<string, ToolTraits>();
  for (const [path, record] of records) {
    for (const [name, value] of Object.entries(record)) {
      const shape = classifyTool(value);
      const where = `${path.length === 0 ? "tools" : `subagents.${path.join("/")}`}.${name}`;
      if (shape.kind === "refused")
        throw new StubConfigError({ pointer: "" }, `\`${where}\` ${shape.problem}.`, `${shape.fix}.`, "session");
      const traits = {
        approval: shape.kind === "executor" && shape.approval,
        noExecutor: shape.kind === "no-executor",
        handoff: shape.kind === "agents-sdk-handoff",
      };
      names.set(qualify(name, path), traits);
      if (shape.kind === "function") plan.push({ owner: record, key: name, name, path, async: shape.async, shape: inputFirst });
      if (shape.kind === "executor") plan.push({ owner: value as object, key: "execute", name, path, async: true, shape: inputFirst });
      if (shape.kind === "langchain") plan.push({ owner: value as object, key: "_call", name, path, async: true, shape: langchainCall });
      if (shape.kind === "agents-sdk")
        plan.push({ owner: value as object, key: "invoke", name, path, async: true, shape: agentsSdkInvoke });
      if (shape.kind === "agents-sdk-handoff")
        plan.push({ owner: value as object, key: "onInvokeHandoff", name, path, async: true, shape: agentsSdkHandoff });
      if (shape.kind === "mcp")
        plan.push({
          owner: shape.entry.client,
          key: "callTool",
          name,
          path,
          async: true,
          shape: mcpCallTool,
          remoteName: shape.entry.remoteName,
        });
    }
  }

  const executors = new Map<Executor, ToolRegistration>();
  const unbind = () => {
    for (const executor of executors.keys()) releaseExecutor(executor, host);
    executors.clear();
  };
  try {
    for (const entry of plan) {
      const executor = holdExecutor(entry.owner, entry.key, qualify(entry.name, entry.path), entry.async, host, entry.shape);
      let known = executors.get(executor);
      if (known === undefined) {
        known = { name: entry.name, paths: [], ...(entry.remoteName !== undefined ? { aliases: new Map<string, string>() } : {}) };
        executors.set(executor, known);
      }
      if (!known.paths.some((path) => samePath(path, entry.path))) known.paths.push(entry.path);
      if (entry.remoteName !== undefined) known.aliases?.set(entry.remoteName, entry.name);
    }
  } catch (error) {
    unbind();
    throw error;
  }
  return { names, executors, unbind };
}

function checkRecord(value: unknown, option: string): { readonly [name: string]: unknown } {
  // LangChain and Agents SDK agents hold their tools in arrays; each tool carries its name.
  const named = Array.isArray(value) ? namedToolsOf(value) : undefined;
  if (named !== undefined) return named;
  if (Array.isArray(value)) {
    throw new StubConfigError(
      { pointer: "" },
      `\`${option}\` is ${describeToolArray(value)}; tooltrace needs a record keyed by tool name, the way the AI SDK takes tools.`,
      "pass `{ list_tasks: listTasks, ... }` (for named tool objects: `Object.fromEntries(tools.map((t) => [t.name, t]))`).",
      "session",
    );
  }
  if (value === null || typeof value !== "object") {
    throw new StubConfigError(
      { pointer: "" },
      `\`${option}\` must be a record of tools, got ${value === null ? "null" : typeof value}.`,
      "pass `{ list_tasks: listTasks, ... }`.",
      "session",
    );
  }
  return value as { readonly [name: string]: unknown };
}
