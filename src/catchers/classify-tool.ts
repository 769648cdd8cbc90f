import { isMcpToolEntry, type McpToolEntry } from "./mcp-marker.js";

/** How tooltrace can catch one entry of a session's `tools`. */
export type ToolShape =
  /** A plain function: patched in place on the record. */
  | { readonly kind: "function"; readonly async: boolean }
  /** An object with an `execute` function (AI SDK `tool()`, tools from `@ai-sdk/mcp`): `execute` is patched. */
  | { readonly kind: "executor"; readonly approval: boolean }
  /** A LangChain tool (`tool()`, `StructuredTool`, `DynamicStructuredTool`): its `_call` is patched on the instance. */
  | { readonly kind: "langchain"; readonly name: string }
  /** An OpenAI Agents SDK function tool (`tool()`): its public `invoke` is patched. */
  | { readonly kind: "agents-sdk"; readonly name: string }
  /** An OpenAI Agents SDK handoff (`handoff(agent)`): its `onInvokeHandoff` is patched, so the transfer is traced. */
  | { readonly kind: "agents-sdk-handoff"; readonly name: string }
  /** A tool an MCP client reaches (from `mcpTools`): the client's `callTool` is patched. */
  | { readonly kind: "mcp"; readonly entry: McpToolEntry }
  /** An AI SDK tool without `execute` (the app answers it) or a provider-executed tool: known by name, nothing runs here. */
  | { readonly kind: "no-executor" }
  /** Something tooltrace cannot catch: the message says what it is and what to pass instead. */
  | { readonly kind: "refused"; readonly problem: string; readonly fix: string };

const IMPL_FIX =
  "give the session a record of the functions the tool calls, and have the tool call them through that record: `const impl = { search }; /* the tool's body: */ (input) => impl.search(input); createSession({ tools: impl })`";

/** Classifies one tool value without calling anything on it. */
export function classifyTool(value: unknown): ToolShape {
  if (typeof value === "function") return { kind: "function", async: isAsyncFunction(value) };
  if (value === null || typeof value !== "object") {
    return {
      kind: "refused",
      problem: `is ${value === null ? "null" : typeof value}, not a tool`,
      fix: "pass an AI SDK tool (with `execute`) or a function",
    };
  }
  if (isMcpToolEntry(value)) return { kind: "mcp", entry: value };
  const record = value as Record<string, unknown>;
  if (typeof record.execute === "function")
    return { kind: "executor", approval: record.needsApproval !== undefined && record.needsApproval !== false };
  if (isLangChainTool(record)) return { kind: "langchain", name: record.name as string };
  if (isAgentsSdkFunctionTool(record)) return { kind: "agents-sdk", name: record.name as string };
  if (isAgentsSdkHandoff(record)) return { kind: "agents-sdk-handoff", name: record.toolName as string };
  const framework = frameworkOf(record);
  if (framework !== undefined) {
    return { kind: "refused", problem: `is ${framework}, whose calls tooltrace cannot catch yet (no adapter)`, fix: IMPL_FIX };
  }
  if (
    record.execute === undefined &&
    (record.inputSchema !== undefined || record.type === "provider-defined" || record.type === "provider")
  )
    return { kind: "no-executor" };
  return {
    kind: "refused",
    problem: `is an object without an \`execute\` function (keys: ${Object.keys(record).slice(0, 8).join(", ") || "none"})`,
    fix: "pass an AI SDK tool (with `execute`) or a function",
  };
}

/** A LangChain `StructuredTool` (what `tool()` from `@langchain/core/tools` makes): `invoke`, `name`, and `_call` to patch. */
function isLangChainTool(record: Record<string, unknown>): boolean {
  return (
    typeof record.invoke === "function" &&
    typeof record._call === "function" &&
    typeof record.name === "string" &&
    ("lc_serializable" in record || "lc_kwargs" in record)
  );
}

/** An OpenAI Agents SDK `FunctionTool`: `type: "function"`, a name, and the public `invoke(runContext, input, details)`. */
function isAgentsSdkFunctionTool(record: Record<string, unknown>): boolean {
  return record.type === "function" && typeof record.name === "string" && typeof record.invoke === "function" && "parameters" in record;
}

/** An OpenAI Agents SDK `Handoff`: the tool name the model calls, and the public `onInvokeHandoff(runContext, args)`. */
function isAgentsSdkHandoff(record: Record<string, unknown>): boolean {
  return (
    typeof record.toolName === "string" &&
    typeof record.onInvokeHandoff === "function" &&
    typeof record.getHandoffAsFunctionTool === "function"
  );
}

function frameworkOf(record: Record<string, unknown>): string | undefined {
  if (typeof record.callback === "function" || (typeof record.handler === "function" && typeof record.update === "function"))
    return "an MCP server's registered tool (tooltrace catches MCP tools at the client: `tools: await mcpTools(client)`)";
  if (typeof record.invoke === "function" || typeof record.call === "function")
    return "a tool object with `invoke`/`call` but no `execute`";
  return undefined;
}

function isAsyncFunction(fn: object): boolean {
  const tag = (fn as { [Symbol.toStringTag]?: string })[Symbol.toStringTag];
  return tag === "AsyncFunction" || tag === "AsyncGeneratorFunction";
}

/** The tools of an array keyed by their own names, when every item is a named framework tool (LangChain, Agents SDK). */
export function namedToolsOf(items: readonly unknown[]): Record<string, unknown> | undefined {
  const shapes = items.map(classifyTool);
  if (
    items.length === 0 ||
    !shapes.every((shape) => shape.kind === "langchain" || shape.kind === "agents-sdk" || shape.kind === "agents-sdk-handoff")
  )
    return undefined;
  return Object.fromEntries(shapes.map((shape, i) => [(shape as { name: string }).name, items[i]]));
}

/** Describes an array of tools for the refusal message, naming a framework when the items come from one. */
export function describeToolArray(items: readonly unknown[]): string {
  const refused = items.map(classifyTool).find((shape): shape is Extract<ToolShape, { kind: "refused" }> => shape.kind === "refused");
  return refused ? `an array whose items ${refused.problem.replace(/^is /, "are ")}` : "an array";
}
