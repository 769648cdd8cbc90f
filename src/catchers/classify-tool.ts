/** How tooltrace can catch one entry of a session's `tools`. */
export type ToolShape =
  /** A plain function: patched in place on the record. */
  | { readonly kind: "function"; readonly async: boolean }
  /** An object with an `execute` function (AI SDK `tool()`, tools from `@ai-sdk/mcp`): `execute` is patched. */
  | { readonly kind: "executor"; readonly approval: boolean }
  /** An AI SDK tool without `execute` (the app answers it) or a provider-executed tool: known by name, nothing runs here. */
  | { readonly kind: "no-executor" }
  /** Something tooltrace cannot catch: the message says what it is and what to pass instead. */
  | { readonly kind: "refused"; readonly problem: string; readonly fix: string };

const IMPL_FIX = "give the session a record of the functions the tool calls, and have the tool call them through that record: `const impl = { search }; /* the tool's body: */ (input) => impl.search(input); createSession({ tools: impl })`";

/** Classifies one tool value without calling anything on it. */
export function classifyTool(value: unknown): ToolShape {
  if (typeof value === "function") return { kind: "function", async: isAsyncFunction(value) };
  if (value === null || typeof value !== "object") {
    return { kind: "refused", problem: `is ${value === null ? "null" : typeof value}, not a tool`, fix: "pass an AI SDK tool (with `execute`) or a function" };
  }
  const record = value as Record<string, unknown>;
  if (typeof record.execute === "function") return { kind: "executor", approval: record.needsApproval !== undefined && record.needsApproval !== false };
  const framework = frameworkOf(record);
  if (framework !== undefined) {
    return { kind: "refused", problem: `is ${framework}, whose calls tooltrace cannot catch yet (no adapter)`, fix: IMPL_FIX };
  }
  if (record.execute === undefined && (record.inputSchema !== undefined || record.type === "provider-defined" || record.type === "provider")) return { kind: "no-executor" };
  return { kind: "refused", problem: `is an object without an \`execute\` function (keys: ${Object.keys(record).slice(0, 8).join(", ") || "none"})`, fix: "pass an AI SDK tool (with `execute`) or a function" };
}

function frameworkOf(record: Record<string, unknown>): string | undefined {
  if (typeof record.invoke === "function" && (Array.isArray(record.lc_namespace) || "lc_serializable" in record || typeof record._call === "function")) return "a LangChain tool";
  if (typeof record.invoke === "function" && record.type === "function" && typeof record.name === "string") return "an OpenAI Agents SDK function tool";
  if (typeof record.callback === "function" || (typeof record.handler === "function" && typeof record.update === "function")) return "an MCP server's registered tool";
  if (typeof record.invoke === "function" || typeof record.call === "function") return "a tool object with `invoke`/`call` but no `execute`";
  return undefined;
}

function isAsyncFunction(fn: Function): boolean {
  const tag = (fn as { [Symbol.toStringTag]?: string })[Symbol.toStringTag];
  return tag === "AsyncFunction" || tag === "AsyncGeneratorFunction";
}

/** Describes an array of tools for the refusal message, naming a framework when the items come from one. */
export function describeToolArray(items: readonly unknown[]): string {
  const refused = items.map(classifyTool).find((shape): shape is Extract<ToolShape, { kind: "refused" }> => shape.kind === "refused");
  return refused ? `an array whose items ${refused.problem.replace(/^is /, "are ")}` : "an array";
}
