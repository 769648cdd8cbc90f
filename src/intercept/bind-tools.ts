import { qualify, type ToolCallHost, type ToolIdentity } from "./call-context.js";
import { bindExecutor } from "./tool-spies.js";

/** A record of tools as agents hold them: AI SDK `tool({ inputSchema, execute })` objects or plain functions. */
export type ToolsInput = { readonly [name: string]: unknown };

/** The tools of a session: what it can stub, and how to undo the patches. */
export interface BoundTools {
  /** Every tool name the session knows, qualified by its path. */
  readonly names: ReadonlySet<string>;
  readonly unbind: () => void;
}

/**
 * Binds every executor in `tools` (and in each subagent's tools, keyed by path) to `host`.
 * Tools without an executor (client-side tools) are known by name but have nothing to patch.
 */
export function bindTools(
  host: ToolCallHost,
  tools: ToolsInput | undefined,
  subagents: { readonly [path: string]: ToolsInput } | undefined,
): BoundTools {
  const names = new Set<string>();
  const unbinders: (() => void)[] = [];
  const bindAt = (record: ToolsInput, path: readonly string[]) => {
    for (const [name, value] of Object.entries(record)) {
      const identity: ToolIdentity = { tool: name, path, qualifiedName: qualify(name, path) };
      names.add(identity.qualifiedName);
      if (typeof value === "function") {
        unbinders.push(bindExecutor(record, name, identity, host));
      } else if (value !== null && typeof value === "object" && typeof (value as { execute?: unknown }).execute === "function") {
        unbinders.push(bindExecutor(value, "execute", identity, host));
      }
    }
  };
  try {
    if (tools) bindAt(tools, []);
    for (const [path, record] of Object.entries(subagents ?? {})) bindAt(record, path.split("/").filter(Boolean));
  } catch (error) {
    unbinders.forEach((unbind) => unbind());
    throw error;
  }
  return {
    names,
    unbind: () => {
      while (unbinders.length > 0) unbinders.pop()?.();
    },
  };
}
