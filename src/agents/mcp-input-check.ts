import type { ErrorObject } from "ajv/dist/2020.js";
import { lazyRequire } from "../base/lazy-require.js";
import { compilePattern } from "../stubs/pattern/compile-pattern.js";
import type { McpToolDefinition } from "./mcp-definitions.js";

const ajvModule = lazyRequire<typeof import("ajv/dist/2020.js")>("ajv/dist/2020.js");
const regExp = Object.assign((pattern: string) => compilePattern(pattern), { code: "tooltraceLinearRegExp" });

/** Checks a call's arguments against its tool's input schema: the problem, or undefined when they conform. */
export type McpInputCheck = (tool: string, input: unknown) => string | undefined;

/**
 * Compiles each tool's `inputSchema` once, when the server is made: a schema ajv cannot compile is refused
 * there (`problem(index, message)`), not at the first call. A call's problem names the JSON pointer of what
 * is wrong (`/city: must be string`, `/: must have required property 'city'`), as MCP hosts show it to the model.
 */
export function mcpInputCheck(tools: readonly McpToolDefinition[], problem: (index: number, message: string) => never): McpInputCheck {
  const ajv = new (ajvModule().Ajv2020)({ strict: false, allErrors: false, validateFormats: false, unicodeRegExp: true, code: { regExp } });
  const validators = new Map(
    tools.map((tool, index) => {
      try {
        return [tool.name, ajv.compile(tool.inputSchema ?? { type: "object" })] as const;
      } catch (error) {
        return problem(index, (error as Error).message);
      }
    }),
  );
  return (tool, input) => {
    const validate = validators.get(tool);
    if (validate === undefined || validate(input) === true) return undefined;
    const [first] = (validate.errors ?? []) as ErrorObject[];
    const pointer = first?.instancePath === "" || first === undefined ? "/" : first.instancePath;
    return `Input validation error: Invalid arguments for tool ${tool}: ${pointer}: ${first?.message ?? "does not match the input schema"}`;
  };
}
