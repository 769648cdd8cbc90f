import type { IncomingMessage, Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { message } from "../exits/errors.js";
import { withPeer } from "../exits/optional-peer.js";
import { lazyNodeHttp, lazyRequire } from "../base/lazy-require.js";
import { mcpCallTool } from "../catchers/call-shapes.js";
import { GET_PROMPT, type McpCallAnswerer, READ_RESOURCE } from "./mcp-answer.js";
import type { McpServed } from "./mcp-definitions.js";
import { getPrompt, INTERNAL_ERROR, INVALID_PARAMS, McpRequestError, readResource } from "./mcp-extras.js";

/** A running MCP server: over stdio, or streamable HTTP on loopback (its `url`). */
export interface ServedMcp {
  readonly url?: string;
  close(): Promise<void>;
}

// Required, not imported: Jest's CommonJS mode has no `import()` ("A dynamic import callback was invoked without
// --experimental-vm-modules"). The SDK ships CommonJS, and the server talks to its clients only over a transport.
const sdkServer = lazyRequire<typeof import("@modelcontextprotocol/sdk/server/index.js")>("@modelcontextprotocol/sdk/server/index.js");
const sdkTypes = lazyRequire<typeof import("@modelcontextprotocol/sdk/types.js")>("@modelcontextprotocol/sdk/types.js");
const sdkStdio = lazyRequire<typeof import("@modelcontextprotocol/sdk/server/stdio.js")>("@modelcontextprotocol/sdk/server/stdio.js");
const sdkHttp = lazyRequire<typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js")>(
  "@modelcontextprotocol/sdk/server/streamableHttp.js",
);
const peer = <T>(load: () => T) => withPeer("@modelcontextprotocol/sdk", "An MCP server served by tooltrace", async () => load());
const sdk = () => peer(() => ({ server: sdkServer(), types: sdkTypes() }));

/** What a server serves: the definitions of a checked file (or of `mcpServer()`'s options). */
export type McpServedDefinitions = Pick<McpServed, "tools" | "resources" | "prompts" | "checkInput">;

/**
 * An MCP server that lists the tools (answering every `tools/call` with `answer`, once its arguments match the
 * tool's input schema), and the resources and prompts, whose reads go through `answer` too (for the trace).
 */
async function mcpServerOf(served: McpServedDefinitions, answer: McpCallAnswerer) {
  const { server, types } = await sdk();
  const { tools, resources, prompts } = served;
  const capabilities = { tools: {}, ...(resources.length > 0 ? { resources: {} } : {}), ...(prompts.length > 0 ? { prompts: {} } : {}) };
  const mcp = new server.Server({ name: "tooltrace", version: "1.0.0" }, { capabilities });
  /** The answer to a request through `answer`: its output, or the MCP error its client reads (prefixed once). */
  const through = async (name: string, input: unknown, local?: unknown) => {
    const answered = await answer(name, input, local);
    if ("refused" in answered) throw new McpRequestError(INVALID_PARAMS, message(answered.refused));
    if ("error" in answered) throw new McpRequestError(INTERNAL_ERROR, message(answered.error));
    return answered.output;
  };
  mcp.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: (tool.inputSchema ?? { type: "object" }) as { type: "object" },
    })),
  }));
  mcp.setRequestHandler(types.CallToolRequestSchema, async (request) => {
    const input = request.params.arguments ?? {};
    // Arguments the schema refuses never reach the rules: the model gets the error, to correct its call.
    const problem = served.checkInput(request.params.name, input);
    if (problem !== undefined) return { content: [{ type: "text" as const, text: problem }], isError: true };
    const answered = await answer(request.params.name, input);
    if ("refused" in answered) throw new McpRequestError(INVALID_PARAMS, message(answered.refused));
    const result = "error" in answered ? Promise.reject(new Error(answered.error)) : answered.output;
    return (await mcpCallTool.deliver?.(result, { run: () => undefined, thisArg: undefined, args: [] })) as {
      content: { type: "text"; text: string }[];
    };
  });
  if (resources.length > 0) {
    mcp.setRequestHandler(types.ListResourcesRequestSchema, async () => ({
      resources: resources.map(({ uri, name, description, mimeType, json }) => ({
        uri,
        name,
        ...(description !== undefined ? { description } : {}),
        mimeType: mimeType ?? (json !== undefined ? "application/json" : "text/plain"),
      })),
    }));
    mcp.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
      const { uri } = request.params;
      return (await through(READ_RESOURCE, { uri }, readResource(resources, uri))) as { contents: { uri: string; text: string }[] };
    });
  }
  if (prompts.length > 0) {
    mcp.setRequestHandler(types.ListPromptsRequestSchema, async () => ({
      prompts: prompts.map(({ name, description, arguments: declared }) => ({
        name,
        ...(description !== undefined ? { description } : {}),
        ...(declared !== undefined ? { arguments: declared } : {}),
      })),
    }));
    mcp.setRequestHandler(types.GetPromptRequestSchema, async (request) => {
      const { name, arguments: given = {} } = request.params;
      const prompt = getPrompt(prompts, name, given);
      return (await through(GET_PROMPT, { name, arguments: given }, prompt)) as ReturnType<typeof getPrompt>;
    });
  }
  return mcp;
}

/** Serves over standard input and output, as an MCP host (Claude Code, Cursor, `MCPServerStdio`) starts it. */
export async function serveMcpStdio(served: McpServedDefinitions, answer: McpCallAnswerer): Promise<ServedMcp> {
  const mcp = await mcpServerOf(served, answer);
  const { StdioServerTransport } = await peer(sdkStdio);
  await mcp.connect(new StdioServerTransport());
  return { close: () => mcp.close() };
}

/** Serves streamable HTTP on 127.0.0.1 (`port` 0: any free one), one stateless server per request. */
export async function serveMcpHttp(served: McpServedDefinitions, answer: McpCallAnswerer, port = 0): Promise<ServedMcp> {
  const { StreamableHTTPServerTransport } = await peer(sdkHttp);
  const { createServer } = lazyNodeHttp();
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
      const mcp = await mcpServerOf(served, answer);
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
