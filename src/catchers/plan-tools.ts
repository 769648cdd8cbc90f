import { types } from "node:util";
import { StubConfigError } from "../exits/errors.js";
import type { ToolTraits } from "../pipeline/tool-directory.js";
import { qualify } from "../trace/paths.js";
import { agentsSdkHandoff, agentsSdkInvoke, type CallShape, inputFirst, langchainCall, mcpCallTool, mcpRequest } from "./call-shapes.js";
import { classifyTool, describeToolArray, namedToolsOf, type ToolShape } from "./classify-tool.js";

/** One executor to patch: where it is, how its calls look, and which tool at which path it serves. */
export interface PlannedExecutor {
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

/** What a record of tools holds for a session: the names it may stub, and each executor to patch. */
export interface ToolsPlan {
  readonly names: Map<string, ToolTraits>;
  readonly executors: PlannedExecutor[];
}

/**
 * Plans the tools of `record` at `path` into `plan`: every tool's name and traits, and where its executor is
 * caught. Refuses a value tooltrace cannot catch, naming it (`where` prefix) and what to pass instead; with
 * `lenient` (tools the agent defines inline, met at a library's entry), such a value is passed over instead.
 */
export function planRecord(
  plan: ToolsPlan,
  record: { readonly [name: string]: unknown },
  path: readonly string[],
  prefix: string,
  lenient = false,
): void {
  const instance = isClassInstance(record);
  for (const [name, value] of toolEntries(record)) {
    const shape = classifyTool(value);
    const where = `${prefix}.${name}`;
    // A class instance keeps its state beside its methods: only what can be a tool is one.
    if (shape.kind === "refused" && (instance || lenient)) continue;
    if (shape.kind === "refused") throw new StubConfigError({ pointer: "" }, `\`${where}\` ${shape.problem}.`, `${shape.fix}.`, "session");
    plan.names.set(qualify(name, path), {
      approval: shape.kind === "executor" && shape.approval,
      noExecutor: shape.kind === "no-executor",
      handoff: shape.kind === "agents-sdk-handoff",
    });
    const planned = planFor(shape, record, value as object, name);
    if (planned !== undefined) plan.executors.push({ ...planned, name, path, where });
  }
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

export function checkRecord(value: unknown, option: string): { readonly [name: string]: unknown } {
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
