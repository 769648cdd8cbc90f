import { printOut } from "../exits/out.js";
import { answerFromRules, answerThroughBridge } from "./mcp-answer.js";
import { readMcpServeFile } from "./mcp-definitions.js";
import { type ServedMcp, serveMcpHttp, serveMcpStdio } from "./mcp-serve.js";

/**
 * `npx tooltrace mcp serve <file> [--http[=port]]`: the file's tools as an MCP server, every call answered by
 * its stub rules (closed-world), over stdio (for an MCP host's config) or streamable HTTP on 127.0.0.1 (its
 * URL printed). Started by `mcpServer()` in a test, the test's session answers instead
 * (`TOOLTRACE_MCP_BRIDGE`), so the calls are in its trace.
 */
export async function mcpServeCommand(file: string, flags: readonly string[]): Promise<ServedMcp> {
  const served = readMcpServeFile(file);
  const bridge = process.env.TOOLTRACE_MCP_BRIDGE;
  const answer = bridge ? answerThroughBridge(bridge) : answerFromRules(served);
  const http = flags.find((flag) => flag === "--http" || flag.startsWith("--http="));
  if (http === undefined) return serveMcpStdio(served, answer);
  const server = await serveMcpHttp(served, answer, http === "--http" ? 0 : Number(http.slice("--http=".length)));
  printOut("command output", String(server.url), "stdout");
  return server;
}
