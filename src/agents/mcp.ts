/** A tool an MCP client reaches, for `createSession({ tools })`: made by {@link mcpTools}. */
export interface McpToolEntry {
  readonly [MCP_TOOL]: true;
  /** The client whose `callTool` is caught. */
  readonly client: McpClientLike;
  /** The tool's name on the server. */
  readonly remoteName: string;
  /** The input schema the server lists for it. */
  readonly inputSchema: unknown;
}

/** The part of `@modelcontextprotocol/sdk`'s `Client` tooltrace uses. */
export interface McpClientLike {
  listTools(): Promise<{ tools: readonly { name: string; inputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: unknown[]): Promise<unknown>;
}

/** Marks the entries {@link mcpTools} makes. */
export const MCP_TOOL = Symbol.for("tooltrace.mcpTool");

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /** The server's name in rules: tools are named `server/tool`. Default: no prefix. */
  readonly server?: string;
  /** Names the tools as you like instead (`(tool) => \`crm_${tool}\``). */
  readonly name?: (tool: string) => string;
}

/**
 * The tools an MCP server lists, as entries for `createSession({ tools })`: the agent keeps calling
 * `client.callTool(...)` as it does, and each call is caught at the client, named `server/tool` (or as `name`
 * maps it), stubbed, refused in strict mode, and traced. Stubbing a tool the server does not list is refused
 * at setup, with the near name. A stub's `response` is returned as the tool's result (a `CallToolResult` as it
 * is, any other JSON as its text and `structuredContent`); a `throw` comes back as an `isError` result, the
 * way a tool's failure reaches an MCP client.
 *
 * @example
 * ```ts
 * const tools = await mcpTools(client, { server: "tasks" });
 * const session = createSession({ agent, tools, stubs: [{ id: "t", tool: "tasks/list_tasks", outcome: { response: { tasks: [] } } }] });
 * ```
 */
export async function mcpTools(client: McpClientLike, options: McpToolsOptions = {}): Promise<Record<string, McpToolEntry>> {
  const { tools } = await client.listTools();
  const name = options.name ?? ((tool: string) => (options.server ? `${options.server}/${tool}` : tool));
  return Object.fromEntries(
    tools.map((tool) => [name(tool.name), { [MCP_TOOL]: true as const, client, remoteName: tool.name, inputSchema: tool.inputSchema }]),
  );
}

/** True for an entry {@link mcpTools} made. */
export function isMcpToolEntry(value: unknown): value is McpToolEntry {
  return value !== null && typeof value === "object" && (value as Partial<McpToolEntry>)[MCP_TOOL] === true;
}
