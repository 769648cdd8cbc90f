/** Marks the entries `mcpTools` makes, so the session knows to catch them at the MCP client. */
export const MCP_TOOL = Symbol.for("tooltrace.mcpTool");

/** The part of `@modelcontextprotocol/sdk`'s `Client` tooltrace uses. */
export interface McpClientLike {
  listTools(): Promise<{ tools: readonly { name: string; inputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: unknown[]): Promise<unknown>;
  /** The request layer every `tools/call` goes through, where the SDK's client is caught. */
  request?(request: { method: string; params?: unknown }, ...rest: unknown[]): Promise<unknown>;
}

/** A tool an MCP client reaches, for `createSession({ tools })`: made by `mcpTools`. */
export interface McpToolEntry {
  readonly [MCP_TOOL]: true;
  /** The client whose `callTool` is caught. */
  readonly client: McpClientLike;
  /** The tool's name on the server. */
  readonly remoteName: string;
  /** The input schema the server lists for it. */
  readonly inputSchema: unknown;
}

/** True for an entry `mcpTools` made. */
export function isMcpToolEntry(value: unknown): value is McpToolEntry {
  return value !== null && typeof value === "object" && (value as Partial<McpToolEntry>)[MCP_TOOL] === true;
}
