import { inlineLibrariesLoaded } from "../pipeline/inline-libraries.js";
import { currentTurnContext } from "../pipeline/turn-context.js";

/**
 * Hands the session whose turn is running the tools an agent defined inline, met at its library's entry (a
 * `generateText` call, a LangChain tool's first call, an Agents SDK `tool()`'s): from then on their calls go
 * through the session's chain (stub rules, strict mode, the trace) as its own tools' do. Outside a turn,
 * nothing. Returns true when any of them was new to the session.
 */
export function adoptInline(tools: unknown, via: string): boolean {
  return currentTurnContext()?.pipeline.tools.adopt?.(tools, via) === true;
}

/** Says that `library` was loaded with its inline tools caught (a session given no tools may then stub them). */
export function markInlineLibrary(library: string): void {
  inlineLibrariesLoaded.add(library);
}
