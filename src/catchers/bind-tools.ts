import { StubConfigError } from "../exits/errors.js";
import type { ExecutorHandle } from "../pipeline/caught.js";
import type { ToolDirectory, ToolIdentity, ToolTraits } from "../pipeline/tool-directory.js";
import { qualify, samePath, splitPath } from "../trace/paths.js";
import { mcpRequest } from "./call-shapes.js";
import { holdMcpTransport } from "./mcp-transport.js";
import { PatchRefused } from "./patch-function.js";
import { checkRecord, type PlannedExecutor, planRecord, type ToolsPlan } from "./plan-tools.js";
import { type Executor, holdExecutor, releaseExecutor } from "./tool-spies.js";

export { toolNamesIn } from "./plan-tools.js";

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

/** A session's tools, patched: the directory the pipeline names calls by, and how to undo the patches. */
export class BoundTools implements ToolDirectory {
  readonly executors = new Map<Executor, ToolRegistration>();

  /** Tool records the agent defined inline and a library's entry handed over during a turn (see {@link adopt}). */
  private readonly adopted = new WeakSet<object>();
  /** A session given no tools takes those its agent hands its library; one given tools catches those alone. */
  private takesInline = false;

  /** Lets the session take the tools its agent defines inline (see {@link adopt}): for a session given none. */
  takeInlineTools(): void {
    this.takesInline = true;
  }

  constructor(
    readonly names: Map<string, ToolTraits>,
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

  /**
   * Takes in the tools an agent defined inline (in its `generateText` call, its LangChain `ToolNode`, its Agents
   * SDK `tool()`), met at the library's entry during a turn: from now on their calls go through this session's
   * chain as its own tools' do. What cannot be caught is passed over (the agent's library runs it as ever).
   */
  adopt(tools: unknown, via: string): boolean {
    if (!this.takesInline || tools === null || typeof tools !== "object") return false;
    // A record is known by itself; an array of named tools (LangChain's, the Agents SDK's) by each tool.
    const fresh = Array.isArray(tools)
      ? tools.filter((tool) => typeof tool === "object" && tool !== null && !this.adopted.has(tool))
      : tools;
    if (Array.isArray(fresh) ? fresh.length === 0 : this.adopted.has(tools)) return false;
    for (const item of Array.isArray(fresh) ? fresh : [tools]) this.adopted.add(item as object);
    let record: { readonly [name: string]: unknown };
    try {
      record = checkRecord(fresh, via);
    } catch {
      return false;
    }
    const plan: ToolsPlan = { names: new Map(), executors: [] };
    planRecord(plan, record, [], via, true);
    for (const [name, traits] of plan.names) if (!this.names.has(name)) this.names.set(name, traits);
    for (const entry of plan.executors) {
      try {
        this.hold(entry);
      } catch {
        // A frozen tool: the library runs it as it is, and strict mode's reconciliation names it.
      }
    }
    return true;
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

/** The path a call is named by: the active one if the executor was given there, else its only path. */
function pathOf(registration: ToolRegistration, active: readonly string[]): readonly string[] {
  const { paths } = registration;
  if (paths.some((path) => samePath(path, active))) return active;
  return paths.length === 1 ? (paths[0] as readonly string[]) : active;
}

/** A tool the server never listed, named with the prefix its listed tools carry (`server/`), when they share one. */
function unlistedName(aliases: ReadonlyMap<string, string>, remote: string): string {
  for (const [listed, local] of aliases) if (local.endsWith(listed)) return `${local.slice(0, local.length - listed.length)}${remote}`;
  return remote;
}

/**
 * Patches every executor in `tools` (and in each subagent's tools, at its path). Refuses, before anything
 * is patched, any value tooltrace cannot catch, naming it and what to pass instead.
 */
export function bindTools(tools: unknown, subagents: { readonly [path: string]: unknown } | undefined, strict = false): BoundTools {
  const plan: ToolsPlan = { names: new Map(), executors: [] };
  if (tools !== undefined) planRecord(plan, checkRecord(tools, "tools"), [], "tools");
  for (const [path, record] of Object.entries(subagents ?? {}))
    planRecord(plan, checkRecord(record, `subagents.${path}`), splitPath(path), `subagents.${splitPath(path).join("/")}`);
  const bound = new BoundTools(plan.names, new Set(Object.keys(subagents ?? {}).map((path) => splitPath(path).join("/"))), strict);
  try {
    for (const entry of plan.executors) bound.hold(entry);
  } catch (error) {
    bound.unbind();
    throw error;
  }
  return bound;
}
