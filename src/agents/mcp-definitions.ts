import { readFileSync } from "node:fs";
import { lazyRequire } from "../base/lazy-require.js";
import { PREFIX, StubConfigError, TooltraceError } from "../exits/errors.js";
import { createRuleSet, type RuleSet } from "../stubs/rule-set.js";
import type { ToolStub } from "../stubs/types.js";
import { checkPrompts, checkResources, type McpPromptDefinition, type McpResourceDefinition } from "./mcp-extras.js";
import { type McpInputCheck, mcpInputCheck } from "./mcp-input-check.js";

/** YAML, loaded only for a served file that is YAML (every test file imports this module through `tooltrace`). */
const yaml = lazyRequire<{ parse(text: string): unknown }>("yaml");

/** One tool an MCP server served by tooltrace lists: its name, description and input schema. */
export interface McpToolDefinition {
  readonly name: string;
  readonly description?: string;
  /** A JSON Schema of an object. Default: `{ "type": "object" }`. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
}

/**
 * A file `npx tooltrace mcp serve` serves: the tools it lists and the stub rules that answer their calls, and
 * the resources and prompts it lists and gives.
 */
export interface McpServeFile {
  /** The tools (`[]` for a server of resources or prompts alone). */
  readonly tools: readonly McpToolDefinition[];
  readonly stubs?: readonly ToolStub[];
  readonly resources?: readonly McpResourceDefinition[];
  readonly prompts?: readonly McpPromptDefinition[];
}

/** A served file after checking: its tools, its rules and its tools' input schemas compiled. */
export interface McpServed {
  readonly tools: readonly McpToolDefinition[];
  readonly rules: RuleSet;
  readonly resources: readonly McpResourceDefinition[];
  readonly prompts: readonly McpPromptDefinition[];
  /** A call's arguments checked against its tool's input schema. */
  readonly checkInput: McpInputCheck;
}

/** Checks a served file's content: each fault names the file and the JSON pointer. */
export function checkMcpServeFile(content: unknown, where: string): McpServed {
  const fail = (pointer: string, problem: string, fix: string): never => {
    throw new StubConfigError({ pointer, what: `MCP server file ${where}` }, problem, fix);
  };
  if (content === null || typeof content !== "object" || Array.isArray(content))
    return fail(
      "",
      "the file holds an object with `tools` (and `stubs`).",
      'write `{ "tools": [{ "name": "get_weather" }], "stubs": [] }`.',
    );
  const { tools = [], stubs, resources, prompts } = content as { tools?: unknown; stubs?: unknown; resources?: unknown; prompts?: unknown };
  if (!Array.isArray(tools) || (tools.length === 0 && resources === undefined && prompts === undefined))
    return fail("/tools", "`tools` must be a non-empty array of tool definitions.", "list each tool: { name, description, inputSchema }.");
  const names = new Set<string>();
  tools.forEach((tool: unknown, index) => {
    const name = (tool as { name?: unknown } | null)?.name;
    if (typeof name !== "string" || !/^[A-Za-z0-9_.-]{1,128}$/.test(name))
      fail(`/tools/${index}/name`, "each tool has a `name` of letters, digits, `_`, `.` or `-`.", 'name it, e.g. "get_weather".');
    if (names.has(name as string)) fail(`/tools/${index}/name`, `the tool "${String(name)}" is listed twice.`, "keep one definition.");
    names.add(name as string);
    const schema = (tool as { inputSchema?: unknown }).inputSchema;
    if (schema !== undefined && (schema === null || typeof schema !== "object" || (schema as { type?: unknown }).type !== "object"))
      fail(
        `/tools/${index}/inputSchema`,
        "an input schema is a JSON Schema of an object.",
        'write `{ "type": "object", "properties": { ... } }`.',
      );
  });
  const checkInput = mcpInputCheck(tools as McpToolDefinition[], (index, message) =>
    fail(`/tools/${index}/inputSchema`, `the input schema does not compile: ${message}.`, "write a JSON Schema of an object."),
  );
  const extras = { resources: checkResources(resources, fail), prompts: checkPrompts(prompts, fail), checkInput };
  try {
    return { tools: tools as McpToolDefinition[], rules: createRuleSet(stubs ?? [], { knownTools: names }), ...extras };
  } catch (error) {
    // The rules' own message, said of the file: which file, and that it is the file that lists no such tool.
    if (error instanceof StubConfigError)
      error.message = error.message
        .replace(PREFIX, `${PREFIX} MCP server file ${where},`)
        .replace("the session has no tool", "the file lists no tool");
    throw error;
  }
}

/** Reads and checks a served file (JSON, or YAML by its extension). */
export function readMcpServeFile(path: string): McpServed {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TooltraceError(
      `mcp serve: cannot read ${path} (${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : ((error as Error).message ?? code)}).`,
      "give the path of a JSON or YAML file with `tools` (each with its stub rules); see docs/mcp-server.md.",
    );
  }
  let content: unknown;
  try {
    content = /\.ya?ml$/i.test(path) ? yaml().parse(text) : JSON.parse(text);
  } catch (error) {
    throw new StubConfigError({ pointer: "", what: `MCP server file ${path}` }, `it is not readable: ${(error as Error).message}`);
  }
  return checkMcpServeFile(content, path);
}
