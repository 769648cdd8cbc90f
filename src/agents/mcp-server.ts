import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TooltraceError, usageError } from "../exits/errors.js";
import { writePrivate } from "../exits/out.js";
import { packageRoot } from "../base/package-root.js";
import { lazyNodeHttp } from "../base/lazy-require.js";
import { resolveRoute } from "../catchers/routes.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { Terminal } from "../pipeline/types.js";
import { pipelineOf } from "../session/session-pipeline.js";
import type { ServedMcp, Session } from "../session/types.js";
import { GET_PROMPT, type McpCallAnswer, type McpCallAnswerer, READ_RESOURCE } from "./mcp-answer.js";
import type { McpPromptDefinition, McpResourceDefinition } from "./mcp-extras.js";
import { checkMcpServeFile, type McpToolDefinition } from "./mcp-definitions.js";
import { suggestName } from "../stubs/suggest.js";
import { jsonBodyOf, refuseBody, serveMcpHttp } from "./mcp-serve.js";

/** Options of {@link mcpServer}. */
export interface McpServerOptions {
  /** The tools the server lists. Their calls are answered by the session's stub rules (and middleware). */
  readonly tools: readonly McpToolDefinition[];
  /** The resources it lists and reads (`resources/read` is in the trace, as a call of that name). */
  readonly resources?: readonly McpResourceDefinition[];
  /** The prompts it lists and gives (`prompts/get` is in the trace, as a call of that name). */
  readonly prompts?: readonly McpPromptDefinition[];
  /** The session whose rules answer; or later, with `use(session)`. */
  readonly session?: Session;
  /** The server's name in an MCP host's config: Claude Code calls its tools `mcp__<name>__<tool>`. Default `tooltrace`. */
  readonly name?: string;
}

/** An MCP server a session serves, and how an MCP host reaches it. */
export interface McpServerHandle extends ServedMcp {
  /** Over stdio: the command an MCP host starts (this Node), its arguments and environment. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Over streamable HTTP, served by this process on 127.0.0.1. */
  readonly url: string;
  /** The `mcpServers` config of an MCP host (Claude Code's `--mcp-config`), over stdio or HTTP. */
  mcpConfig(transport?: "stdio" | "http"): { mcpServers: Record<string, Record<string, unknown>> };
  close(): Promise<void>;
}

class Refused extends Error {}

/**
 * Serves `tools` as an MCP server whose every `tools/call` goes through a session's chain while a turn runs:
 * its stub rules answer (closed-world: a call no rule matches is an MCP error naming the rule that came
 * closest), middleware and strict mode apply, and the call is in the turn's trace. Give an MCP host (Claude
 * Code, Cursor, an Agents SDK `MCPServerStdio`) `mcpConfig()`, or `command`/`args`/`env` (stdio) or `url`, and
 * the session `mcp` (or call `use(session)`).
 *
 * @example
 * ```ts
 * const mcp = await mcpServer({ tools: [{ name: "get_weather", inputSchema: { type: "object" } }] });
 * const agent = claudeCode({ args: ["--mcp-config", JSON.stringify(mcp.mcpConfig())], allowedTools: ["mcp__tooltrace"] });
 * const session = createSession({ agent, llm, stubs, mcp });
 * ```
 */
export async function mcpServer(options: McpServerOptions): Promise<McpServerHandle> {
  const definitions = { tools: options.tools, resources: options.resources, prompts: options.prompts };
  const served = checkMcpServeFile(definitions, "given to mcpServer()");
  const name = options.name ?? "tooltrace";
  const known = new Set(options.tools.map((tool) => tool.name));
  const bound: { readonly session: Session; readonly pipeline: Pipeline }[] = [];
  const use = (session: Session) => {
    const pipeline = pipelineOf(session);
    if (pipeline === undefined) throw usageError("mcpServer: `use(session)` takes a session createSession made.");
    for (const tool of options.tools) pipeline.servedOverMcp.add(`mcp__${name}__${tool.name}`);
    if (!bound.some((entry) => entry.session === session)) bound.push({ session, pipeline });
  };
  if (options.session !== undefined) use(options.session);
  const answer: McpCallAnswerer = async (tool, input, local) => {
    if (bound.length === 0) return { refused: "no session uses this MCP server: give it to createSession({ mcp })." };
    // The call belongs to the session whose turn is running (a server may serve one test's sessions in turn).
    const running = bound.flatMap((entry) => {
      const { target } = resolveRoute(`${entry.session.route}/mcp`);
      return target !== undefined && "context" in target ? [{ ...entry, context: target.context }] : [];
    });
    if (running.length === 0) return { refused: `no turn is running in ${bound.map((entry) => entry.session.name).join(", ")}.` };
    if (running.length > 1)
      return { refused: `${running.map((entry) => entry.session.name).join(" and ")} run turns at once: give each its own mcpServer().` };
    const { session, pipeline, context } = running[0] as (typeof running)[number];
    const definition = tool === READ_RESOURCE || tool === GET_PROMPT;
    if (!definition && !known.has(tool)) {
      const near = suggestName(tool, known);
      return { refused: `no tool "${tool}" on this server${near ? `; did you mean "${near}"?` : "."} Tools: ${[...known].join(", ")}.` };
    }
    const closedWorld: Terminal = {
      source: { kind: "strict" },
      live: false,
      run: (sent) => {
        const closest = pipeline.explainMiss(tool, sent);
        throw new Refused(
          `no stub rule matched ${tool}(${JSON.stringify(sent)})${closest ? `: ${closest}` : `: no rule of ${session.name} names ${tool}.`}`,
        );
      },
    };
    // A resource read or a prompt got: the server's own answer, unless a step of the chain gives another.
    const fromDefinitions: Terminal = { source: { kind: "real" }, live: false, run: () => local };
    const caught = { kind: "tool", executor: { label: tool }, input, callId: undefined, toolName: tool, wire: true } as const;
    try {
      return { output: await pipeline.tool(context, caught, definition ? fromDefinitions : closedWorld) };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      return error instanceof Refused || error instanceof TooltraceError ? { refused: text } : { error: text };
    }
  };
  const http = await serveMcpHttp(served, answer);
  const bridge = await serveBridge(answer);
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-mcp-"));
  const file = join(folder, "tools.json");
  writePrivate("mcp definitions", file, JSON.stringify(definitions));
  const command = process.execPath;
  const args = [join(packageRoot(), "dist", "bin.js"), "mcp", "serve", file];
  const env = { TOOLTRACE_MCP_BRIDGE: bridge.url };
  return {
    command,
    args,
    env,
    url: http.url as string,
    use,
    toolNames: [...known],
    mcpConfig: (transport = "stdio") => ({
      mcpServers: { [name]: transport === "http" ? { type: "http", url: http.url } : { type: "stdio", command, args, env } },
    }),
    close: async () => {
      await Promise.all([http.close(), bridge.close()]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The loopback endpoint a stdio server started by an MCP host sends each call to (`TOOLTRACE_MCP_BRIDGE`). */
async function serveBridge(answer: McpCallAnswerer): Promise<{ url: string; close(): Promise<void> }> {
  // Required here, not imported: a test file that serves no MCP server never loads node:http, and Jest's CommonJS
  // mode has no `import()`.
  const { createServer } = lazyNodeHttp();
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      let body: unknown;
      try {
        body = await jsonBodyOf(incoming);
      } catch (error) {
        refuseBody(incoming, outgoing, error as Error);
        return;
      }
      const { tool, input, served } = body as { tool: string; input: unknown; served?: unknown };
      const answered: McpCallAnswer = await answer(tool, input, served);
      outgoing.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answered));
    })().catch((error: unknown) => outgoing.writeHead(500).end(error instanceof Error ? error.message : String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/call`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
