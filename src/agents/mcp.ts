import { MCP_TOOL, type McpClientLike, type McpToolEntry } from "../catchers/mcp-marker.js";
import { currentTurnContext } from "../pipeline/turn-context.js";

export type { McpClientLike, McpToolEntry };

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
  answerTaskToolsInTurns(client);
  const name = options.name ?? ((tool: string) => (options.server ? `${options.server}/${tool}` : tool));
  return Object.fromEntries(
    tools.map((tool) => [name(tool.name), { [MCP_TOOL]: true as const, client, remoteName: tool.name, inputSchema: tool.inputSchema }]),
  );
}

const ANSWERED_IN_TURNS = Symbol.for("tooltrace.mcpTaskToolsAnsweredInTurns");
type RequestStream = (this: unknown, request: { method?: string }, schema: unknown, options?: { task?: unknown }) => unknown;

/**
 * During a turn, a task tool's `experimental.tasks.callToolStream` asks for its result at once (no task
 * created on the server), so a stub or a refusal answers it as any call is answered, at the client's `request`.
 */
function answerTaskToolsInTurns(client: McpClientLike): void {
  const holder = client as unknown as { requestStream?: RequestStream; [ANSWERED_IN_TURNS]?: true };
  const stream = holder.requestStream;
  if (typeof stream !== "function" || holder[ANSWERED_IN_TURNS]) return;
  holder[ANSWERED_IN_TURNS] = true;
  holder.requestStream = function requestStream(this: unknown, request, schema, options) {
    if (request?.method !== "tools/call" || options?.task === undefined || currentTurnContext() === undefined)
      return stream.call(this, request, schema, options);
    const { task: _task, ...rest } = options;
    return stream.call(this, request, schema, rest);
  };
}
