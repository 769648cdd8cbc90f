import { suggestName } from "../stubs/suggest.js";
import type { YamlEvalCase } from "./yaml-case.js";

/** A tool the case names that the agent lacks: where the case names it, and the tool it likely meant. */
export interface MisnamedTool {
  readonly pointer: string;
  readonly problem: string;
  readonly fix: string;
}

/**
 * The first tool the case names (a tool mock's, a stub rule's, an expected one) that the agent lacks and that is
 * a typo of one it has. A tool mock far from every tool of the agent's is no typo: evalview lets it go unused.
 */
export function misnamedTool(evalCase: YamlEvalCase, tools: ReadonlySet<string>): MisnamedTool | undefined {
  if (tools.size === 0) return undefined;
  const named: (readonly [string, unknown])[] = [
    ...(evalCase.mocks?.tool_mocks ?? []).map((mock, i) => [`/mocks/tool_mocks/${i}/tool`, mock.tool] as const),
    ...(evalCase.stubs ?? []).map((stub, i) => [`/stubs/${i}/tool`, (stub as { tool?: unknown }).tool] as const),
    ...(evalCase.expected?.tools ?? []).map((tool, i) => [`/expected/tools/${i}`, tool] as const),
    ...(evalCase.expected?.sequence ?? []).map((tool, i) => [`/expected/sequence/${i}`, tool] as const),
  ];
  for (const [pointer, tool] of named) {
    // A subagent's tool (`researcher/search`) is not among the agent's own: its path is checked by the session.
    if (typeof tool !== "string" || tools.has(tool) || tool.includes("/")) continue;
    const near = suggestName(tool, tools);
    if (near !== undefined)
      return {
        pointer,
        problem: `the agent has no tool "${tool}".`,
        fix: `did you mean "${near}"? Its tools: ${[...tools].sort().join(", ")}.`,
      };
  }
  return undefined;
}
