import type { IncomingMessage, Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { message } from "../exits/errors.js";
import { withPeer } from "../exits/optional-peer.js";
import { mcpCallTool } from "../catchers/call-shapes.js";
import type { McpCallAnswerer } from "./mcp-answer.js";
import type { McpToolDefinition } from "./mcp-definitions.js";

/** A running MCP server: over stdio, or streamable HTTP on loopback (its `url`). */
export interface ServedMcp {
  readonly url?: string;
  close(): Promise<void>;
}

const sdk = () =>
  withPeer("@modelcontextprotocol/sdk", "An MCP server served by tooltrace", async () => ({
    server: await import("@modelcontextprotocol/sdk/server/index.js"),
    types: await import("@modelcontextprotocol/sdk/types.js"),
  }));

/** An MCP server that lists `tools` and answers every `tools/call` with `answer`. */
async function mcpServerOf(tools: readonly McpToolDefinition[], answer: McpCallAnswerer) {
  const { server, types } = await sdk();
  const mcp = new server.Server({ name: "tooltrace", version: "1.0.0" }, { capabilities: { tools: {} } });
  mcp.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: (tool.inputSchema ?? { type: "object" }) as { type: "object" },
    })),
  }));
  mcp.setRequestHandler(types.CallToolRequestSchema, async (request) => {
    const answered = await answer(request.params.name, request.params.arguments ?? {});
    if ("refused" in answered) throw new types.McpError(types.ErrorCode.InvalidParams, message(answered.refused));
    const result = "error" in answered ? Promise.reject(new Error(answered.error)) : answered.output;
    return (await mcpCallTool.deliver?.(result, { run: () => undefined, thisArg: undefined, args: [] })) as {
      content: { type: "text"; text: string }[];
    };
  });
  return mcp;
}

/** Serves over standard input and output, as an MCP host (Claude Code, Cursor, `MCPServerStdio`) starts it. */
export async function serveMcpStdio(tools: readonly McpToolDefinition[], answer: McpCallAnswerer): Promise<ServedMcp> {
  const mcp = await mcpServerOf(tools, answer);
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  await mcp.connect(new StdioServerTransport());
  return { close: () => mcp.close() };
}

/** Serves streamable HTTP on 127.0.0.1 (`port` 0: any free one), one stateless server per request. */
export async function serveMcpHttp(tools: readonly McpToolDefinition[], answer: McpCallAnswerer, port = 0): Promise<ServedMcp> {
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const { createServer } = await import("node:http");
  const http: HttpServer = createServer((incoming, outgoing) => {
    void (async () => {
      let body: unknown;
      try {
        body = await jsonBodyOf(incoming);
      } catch (error) {
        // The request is refused, the server stays up.
        refuseBody(incoming, outgoing, error as Error);
        return;
      }
      const mcp = await mcpServerOf(tools, answer);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      outgoing.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(incoming, outgoing, body);
    })().catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/** The largest request body `mcp serve --http` (and `mcpServer()`'s bridge) reads: 4 MiB; a larger one gets a 413. */
export const MAX_MCP_BODY_BYTES = 4 * 1024 * 1024;

/** A body over {@link MAX_MCP_BODY_BYTES}: refused before it is read whole. */
export class BodyTooLarge extends Error {
  constructor() {
    super(`the request body is over ${MAX_MCP_BODY_BYTES / 1024 / 1024} MiB, the most an MCP server of tooltrace's reads`);
  }
}

/** A POST's JSON body; anything but JSON (a page's form post, a broken body) is refused, and so is one over the bound. */
export function jsonBodyOf(incoming: IncomingMessage): Promise<unknown> {
  if (incoming.method !== "POST") return Promise.resolve(undefined);
  if (!(incoming.headers["content-type"] ?? "").includes("application/json"))
    return Promise.reject(new Error("the body must be JSON (content-type: application/json)"));
  if (Number(incoming.headers["content-length"] ?? 0) > MAX_MCP_BODY_BYTES) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_MCP_BODY_BYTES) chunks.push(chunk);
      else {
        incoming.off("data", onData);
        chunks.length = 0;
        reject(new BodyTooLarge());
      }
    };
    incoming.on("data", onData);
    incoming.once("end", () => {
      if (size > MAX_MCP_BODY_BYTES) return;
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        resolve(text === "" ? undefined : (JSON.parse(text) as unknown));
      } catch (error) {
        reject(error);
      }
    });
    incoming.once("error", reject);
  });
}

/** Answers a refused body: 413 for one too large (and the connection closed, the rest unread), else JSON-RPC's parse error. */
export function refuseBody(incoming: IncomingMessage, outgoing: import("node:http").ServerResponse, error: Error): void {
  const tooLarge = error instanceof BodyTooLarge;
  const text = JSON.stringify({
    jsonrpc: "2.0",
    id: null,
    error: tooLarge
      ? { code: -32600, message: `Invalid Request: ${error.message}` }
      : { code: -32700, message: `Parse error: ${error.message}` },
  });
  outgoing.writeHead(tooLarge ? 413 : 400, { "content-type": "application/json", ...(tooLarge ? { connection: "close" } : {}) });
  outgoing.end(text, () => {
    if (tooLarge) incoming.destroy();
  });
}
