import { types } from "node:util";
import { StubConfigError } from "../exits/errors.js";
import type { ExecutorHandle } from "../pipeline/caught.js";
import type { ToolDirectory, ToolIdentity, ToolTraits } from "../pipeline/tool-directory.js";
import { qualify, samePath, splitPath } from "../trace/paths.js";
import { agentsSdkHandoff, agentsSdkInvoke, type CallShape, inputFirst, langchainCall, mcpCallTool, mcpRequest } from "./call-shapes.js";
import { classifyTool, describeToolArray, namedToolsOf, type ToolShape } from "./classify-tool.js";
import { holdMcpTransport } from "./mcp-transport.js";
import { PatchRefused } from "./patch-function.js";
import { type Executor, holdExecutor, releaseExecutor } from "./tool-spies.js";

/**
 * The tools as the agent holds them: a record keyed by tool name of AI SDK `tool()` objects, plain functions,
 * LangChain tools or OpenAI Agents SDK function tools; an instance of a class whose methods are the tools; or
 * an array of LangChain or Agents SDK tools, which carry their names.
 */
export type ToolsInput = { readonly [name: string]: unknown } | readonly unknown[] | object;

/** How a session knows one executor: its tool name and the subagent paths it was given at. */
interface ToolRegistration {
  readonly name: string;
  readonly paths: (readonly string[])[];
  /** For an executor serving several tools (an MCP client): the session's name of each tool it serves. */
  readonly aliases?: Map<string, string>;
}

/** One executor to patch: where it is, how its calls look, and which tool at which path it serves. */
interface PlannedExecutor {
  /** Where the session's options hold it, for messages: `tools.search`. */
  readonly where: string;
  readonly owner: object;
  readonly key: string;
  readonly name: string;
  readonly path: readonly string[];
  readonly async: boolean;
  readonly shape: CallShape;
  readonly remoteName?: string;
}

/** A session's tools, patched: the directory the pipeline names calls by, and how to undo the patches. */
export class BoundTools implements ToolDirectory {
  readonly executors = new Map<Executor, ToolRegistration>();

  constructor(
    readonly names: ReadonlyMap<string, ToolTraits>,
    readonly subagentPaths: ReadonlySet<string>,
    /** A strict session's executors stay patched after it closes (see `Executor.keep`). */
    private readonly strict = false,
  ) {}

  identify(executor: ExecutorHandle, toolName: string | undefined, activePath: readonly string[]): ToolIdentity {
    const registration = this.executors.get(executor as Executor);
    if (registration === undefined) return { tool: executor.label, path: activePath, given: false };
    // An executor serving several tools (an MCP client) names the tool per call; a tool the server never
    // listed is named the way its listed tools are (`tasks/delete_task`), and no rule can name it.
    const { aliases } = registration;
    const tool = toolName !== undefined && aliases ? (aliases.get(toolName) ?? unlistedName(aliases, toolName)) : registration.name;
    return { tool, path: pathOf(registration, activePath), given: true };
  }

  /** What undoes this session's holds on MCP clients' transports. */
  private readonly transports: (() => void)[] = [];

  /** Restores every executor this session patched (the last session holding one restores the original). */
  unbind(): void {
    for (const executor of this.executors.keys()) releaseExecutor(executor, this);
    this.executors.clear();
    // A strict session's holds stay, as its executors do: a call its agent leaves behind is still refused.
    if (!this.strict) for (const release of this.transports.splice(0)) release();
  }

  /** Patches one planned executor for this session. */
  hold(entry: PlannedExecutor): void {
    let executor: Executor;
    try {
      executor = holdExecutor(entry.owner, entry.key, qualify(entry.name, entry.path), entry.async, this, entry.shape, this.strict);
    } catch (error) {
      if (!(error instanceof PatchRefused)) throw error;
      throw new StubConfigError({ pointer: "" }, `\`${entry.where}\` ${error.problem}.`, `${error.fix}.`, "session");
    }
    let known = this.executors.get(executor);
    if (known === undefined) {
      known = { name: entry.name, paths: [], ...(entry.remoteName !== undefined ? { aliases: new Map<string, string>() } : {}) };
      this.executors.set(executor, known);
    }
    if (known.paths.length === 0 && entry.shape === mcpRequest) {
      const release = holdMcpTransport(entry.owner, executor);
      if (release !== undefined) this.transports.push(release);
    }
    if (!known.paths.some((path) => samePath(path, entry.path))) known.paths.push(entry.path);
    if (entry.remoteName !== undefined) known.aliases?.set(entry.remoteName, entry.name);
  }
}

/**
 * Patches every executor in `tools` (and in each subagent's tools, at its path). Refuses, before anything
 * is patched, any value tooltrace cannot catch, naming it and what to pass instead.
 */
export function bindTools(tools: unknown, subagents: { readonly [path: string]: unknown } | undefined, strict = false): BoundTools {
  const records: [readonly string[], { readonly [name: string]: unknown }][] = [];
  if (tools !== undefined) records.push([[], checkRecord(tools, "tools")]);
  for (const [path, record] of Object.entries(subagents ?? {})) records.push([splitPath(path), checkRecord(record, `subagents.${path}`)]);
  const plan: PlannedExecutor[] = [];
  const names = new Map<string, ToolTraits>();
  for (const [path, record] of records) {
    const instance = isClassInstance(record);
    for (const [name, value] of toolEntries(record)) {
      const shape = classifyTool(value);
      const where = `${path.length === 0 ? "tools" : `subagents.${path.join("/")}`}.${name}`;
      // A class instance keeps its state beside its methods: only what can be a tool is one.
      if (shape.kind === "refused" && instance) continue;
      if (shape.kind === "refused")
        throw new StubConfigError({ pointer: "" }, `\`${where}\` ${shape.problem}.`, `${shape.fix}.`, "session");
      names.set(qualify(name, path), {
        approval: shape.kind === "executor" && shape.approval,
        noExecutor: shape.kind === "no-executor",
        handoff: shape.kind === "agents-sdk-handoff",
      });
      const planned = planFor(shape, record, value as object, name);
      if (planned !== undefined) plan.push({ ...planned, name, path, where });
    }
  }
  const bound = new BoundTools(names, new Set(Object.keys(subagents ?? {}).map((path) => splitPath(path).join("/"))), strict);
  try {
    for (const entry of plan) bound.hold(entry);
  } catch (error) {
    bound.unbind();
    throw error;
  }
  return bound;
}

/** Where a tool of each shape is caught: the property patched, on which object, and how its calls look. */
function planFor(
  shape: ToolShape,
  record: object,
  value: object,
  name: string,
): Omit<PlannedExecutor, "name" | "path" | "where"> | undefined {
  switch (shape.kind) {
    case "function":
      return { owner: record, key: name, async: shape.async, shape: inputFirst };
    case "executor":
      return { owner: value, key: "execute", async: true, shape: inputFirst };
    case "langchain":
      return { owner: value, key: "_call", async: true, shape: langchainCall };
    case "agents-sdk":
      return { owner: value, key: "invoke", async: true, shape: agentsSdkInvoke };
    case "agents-sdk-handoff":
      return { owner: value, key: "onInvokeHandoff", async: true, shape: agentsSdkHandoff };
    case "mcp":
      // The SDK's client: at `request`, where every `tools/call` goes; a client of another make: at `callTool`.
      return typeof shape.entry.client.request === "function"
        ? { owner: shape.entry.client, key: "request", async: true, shape: mcpRequest, remoteName: shape.entry.remoteName }
        : { owner: shape.entry.client, key: "callTool", async: true, shape: mcpCallTool, remoteName: shape.entry.remoteName };
    default:
      return undefined;
  }
}

/** The path a call is named by: the active one if the executor was given there, else its only path. */
function pathOf(registration: ToolRegistration, active: readonly string[]): readonly string[] {
  const { paths } = registration;
  if (paths.some((path) => samePath(path, active))) return active;
  return paths.length === 1 ? (paths[0] as readonly string[]) : active;
}

/**
 * A record's tools: its own enumerable entries and, for an instance of a class, the methods it inherits (a
 * tools object written as a class keeps its tools on the prototype, where `Object.entries` does not look).
 */
function isClassInstance(record: object): boolean {
  const proto = Object.getPrototypeOf(record) as object | null;
  return proto !== null && proto !== Object.prototype;
}

/** The tool names a session would know in `tools` (a record, a class instance, an array of named tools); none for anything else. */
export function toolNamesIn(tools: unknown): string[] {
  if (tools === null || typeof tools !== "object") return [];
  const record = Array.isArray(tools) ? namedToolsOf(tools) : (tools as { readonly [name: string]: unknown });
  return record === undefined ? [] : toolEntries(record).map(([name]) => name);
}

function toolEntries(record: { readonly [name: string]: unknown }): [string, unknown][] {
  const entries = Object.entries(record);
  const seen = new Set(entries.map(([name]) => name));
  for (
    let proto = Object.getPrototypeOf(record) as object | null;
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === "constructor" || seen.has(name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (descriptor === undefined || typeof (descriptor.get ?? descriptor.value) !== "function") continue;
      seen.add(name);
      entries.push([name, descriptor.get ? descriptor.get.call(record) : descriptor.value]);
    }
  }
  return entries;
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
  // A Proxy's reads go wherever its handler says: a catch written onto it may never be what the agent reads.
  const proxy = proxyInChain(value);
  if (proxy !== undefined) {
    throw new StubConfigError(
      { pointer: "" },
      `\`${option}\` ${proxy === 0 ? "is" : `has in its prototype chain (${proxy} up)`} a Proxy (a lazy registry?): tooltrace catches each tool where the record holds it, and a Proxy's reads can bypass that.`,
      "pass a plain record of the tools (`{ ...registry }`, or `Object.fromEntries(names.map((name) => [name, registry[name]]))`) and give the agent that same record.",
      "session",
    );
  }
  return value as { readonly [name: string]: unknown };
}

/** How many prototypes up a Proxy is in `value`'s chain (0: `value` itself), or `undefined` when there is none. */
function proxyInChain(value: object): number | undefined {
  let level = 0;
  for (let current: object | null = value; current !== null && current !== Object.prototype; level += 1) {
    if (types.isProxy(current)) return level;
    // A Proxy's `getPrototypeOf` trap could lie, but only a Proxy has one: it was caught above before it was asked.
    current = Object.getPrototypeOf(current) as object | null;
  }
  return undefined;
}

/** A tool the server never listed, named with the prefix its listed tools carry (`server/`), when they share one. */
function unlistedName(aliases: ReadonlyMap<string, string>, remote: string): string {
  for (const [listed, local] of aliases) if (local.endsWith(listed)) return `${local.slice(0, local.length - listed.length)}${remote}`;
  return remote;
}
