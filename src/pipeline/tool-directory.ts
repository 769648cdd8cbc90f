import type { ExecutorHandle } from "./caught.js";

/** What a session knows of one qualified tool name. */
export interface ToolTraits {
  /** The tool waits for an approval before it runs (AI SDK `needsApproval`). */
  readonly approval: boolean;
  /** Nothing runs here: the app or the provider answers it. */
  readonly noExecutor: boolean;
  /** An OpenAI Agents SDK handoff: traced, but no stub may answer it (the SDK needs the agent it hands to). */
  readonly handoff: boolean;
}

/** How a caught call is named: its tool, the subagent path it belongs to, and whether the session was given it. */
export interface ToolIdentity {
  readonly tool: string;
  readonly path: readonly string[];
  /** False for an executor this session was not given (another session patched it). */
  readonly given: boolean;
}

/**
 * What the pipeline knows of a session's tools, filled in by the catchers that patched them: every name it
 * may stub, the subagent paths given, and how to name a call caught at an executor.
 */
export interface ToolDirectory {
  /** Every tool name the session knows, qualified by its path, with what it knows of each. */
  readonly names: ReadonlyMap<string, ToolTraits>;
  /** The subagent paths given in `subagents` (`researcher`, `researcher/assistant`). */
  readonly subagentPaths: ReadonlySet<string>;
  /** Names a call caught at `executor` (naming `toolName` when it serves several tools) while `activePath` runs. */
  identify(executor: ExecutorHandle, toolName: string | undefined, activePath: readonly string[]): ToolIdentity;
  /**
   * Takes in tools the agent defined inline, met at a library's entry during a turn (`via` names where):
   * true when any of them was new to the session.
   */
  adopt?(tools: unknown, via: string): boolean;
}
