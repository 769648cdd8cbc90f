import { outcomeError, outcomeResponse } from "../stubs/outcome.js";
import { suggestName } from "../stubs/suggest.js";
import type { McpServed } from "./mcp-definitions.js";

/** How a served tool call was answered: a result, a tool's failure, or a refusal (no such tool, no rule matched). */
export type McpCallAnswer = { readonly output: unknown } | { readonly error: string } | { readonly refused: string };

/**
 * Answers one `tools/call`; or a resource read (`resources/read`, input `{ uri }`) or a prompt got (`prompts/get`,
 * input `{ name, arguments }`), whose `served` answer the server made from its definitions (the trace keeps them).
 */
export type McpCallAnswerer = (tool: string, input: unknown, served?: unknown) => Promise<McpCallAnswer>;

/** The names a resource read and a prompt got go by, in the trace, beside the tools' calls. */
export const READ_RESOURCE = "resources/read";
export const GET_PROMPT = "prompts/get";

/**
 * The served file's own rules answer, closed-world: a tool the file does not list, or a call no rule matches,
 * is refused, naming the tool nearest the name or the rule that came closest and the constraint it missed.
 */
export function answerFromRules(file: McpServed): McpCallAnswerer {
  const names = new Set(file.tools.map((tool) => tool.name));
  return async (tool, input, served) => {
    if (tool === READ_RESOURCE || tool === GET_PROMPT) return { output: served };
    if (!names.has(tool)) {
      const near = suggestName(tool, names);
      return { refused: `no tool "${tool}" on this server${near ? `; did you mean "${near}"?` : "."} Tools: ${[...names].join(", ")}.` };
    }
    const selection = file.rules.select(tool, input);
    if (selection === undefined) {
      const closest = file.rules.explainMiss(tool, input);
      return { refused: `no stub rule matched ${tool}(${JSON.stringify(input)})${closest ? `: ${closest}` : `: no rule names ${tool}.`}` };
    }
    if (selection.outcome.throw !== undefined) return { error: outcomeError(selection.outcome.throw).message };
    return { output: outcomeResponse(selection.outcome.response) };
  };
}

/** The session behind a bridge answers (its stubs, middleware and strict mode), and its trace keeps the calls. */
export function answerThroughBridge(url: string): McpCallAnswerer {
  return async (tool, input, served) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool, input, served }),
    });
    if (!response.ok) return { refused: `the test's session could not answer (${response.status}): ${await response.text()}` };
    return (await response.json()) as McpCallAnswer;
  };
}
