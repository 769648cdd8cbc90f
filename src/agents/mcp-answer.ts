import { outcomeError, outcomeResponse } from "../stubs/outcome.js";
import { suggestName } from "../stubs/suggest.js";
import type { McpServed } from "./mcp-definitions.js";

/** How a served tool call was answered: a result, a tool's failure, or a refusal (no such tool, no rule matched). */
export type McpCallAnswer = { readonly output: unknown } | { readonly error: string } | { readonly refused: string };

/** Answers one `tools/call`. */
export type McpCallAnswerer = (tool: string, input: unknown) => Promise<McpCallAnswer>;

/**
 * The served file's own rules answer, closed-world: a tool the file does not list, or a call no rule matches,
 * is refused, naming the tool nearest the name or the rule that came closest and the constraint it missed.
 */
export function answerFromRules(served: McpServed): McpCallAnswerer {
  const names = new Set(served.tools.map((tool) => tool.name));
  return async (tool, input) => {
    if (!names.has(tool)) {
      const near = suggestName(tool, names);
      return { refused: `no tool "${tool}" on this server${near ? `; did you mean "${near}"?` : "."} Tools: ${[...names].join(", ")}.` };
    }
    const selection = served.rules.select(tool, input);
    if (selection === undefined) {
      const closest = served.rules.explainMiss(tool, input);
      return { refused: `no stub rule matched ${tool}(${JSON.stringify(input)})${closest ? `: ${closest}` : `: no rule names ${tool}.`}` };
    }
    if (selection.outcome.throw !== undefined) return { error: outcomeError(selection.outcome.throw).message };
    return { output: outcomeResponse(selection.outcome.response) };
  };
}

/** The session behind a bridge answers (its stubs, middleware and strict mode), and its trace keeps the calls. */
export function answerThroughBridge(url: string): McpCallAnswerer {
  return async (tool, input) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool, input }),
    });
    if (!response.ok) return { refused: `the test's session could not answer (${response.status}): ${await response.text()}` };
    return (await response.json()) as McpCallAnswer;
  };
}
