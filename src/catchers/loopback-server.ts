import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { message } from "../base/errors.js";

/** A `node:http` server on 127.0.0.1 serving a fetch-style handler. */
export interface LoopbackServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `handler` on 127.0.0.1 at a free port, for agents in another process (a CLI) or any client that
 * should reach the mock over a real socket. Requests on a session's route (`${url}${session.route}/v1`) are
 * attributed to that session's running turn.
 *
 * @example
 * ```ts
 * const llm = createLlmAnswer({ respond });
 * const server = await serveOnLoopback(llm.answer);
 * const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}${session.route}/v1` });
 * ```
 */
export async function serveOnLoopback(handler: (request: Request) => Promise<Response>): Promise<LoopbackServer> {
  const server = createServer((incoming, outgoing) => {
    void respond(handler, incoming, outgoing);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(
  handler: (request: Request) => Promise<Response>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  try {
    const response = await handler(toRequest(incoming, await readBody(incoming)));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (response.body === null) {
      outgoing.writeHead(response.status, headers).end();
      return;
    }
    // Server-sent events go out as they come (a live upstream's reply streams through); anything else whole.
    if (!(headers["content-type"] ?? "").includes("text/event-stream")) {
      const body = Buffer.from(await response.arrayBuffer());
      headers["content-length"] = String(body.byteLength);
      outgoing.writeHead(response.status, headers).end(body);
      return;
    }
    outgoing.writeHead(response.status, headers);
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) outgoing.write(chunk.value);
    outgoing.end();
  } catch (error) {
    if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "application/json" });
    outgoing.end(JSON.stringify({ error: { message: message(error instanceof Error ? error.message : String(error)) } }));
  }
}

/** The whole request body (a model request is small JSON); empty for methods without one. */
function readBody(incoming: IncomingMessage): Promise<Buffer | undefined> {
  if (incoming.method === "GET" || incoming.method === "HEAD") return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.once("end", () => resolve(Buffer.concat(chunks)));
    incoming.once("error", reject);
  });
}

function toRequest(incoming: IncomingMessage, body: Buffer | undefined): Request {
  const headers: [string, string][] = [];
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i] as string, raw[i + 1] as string]);
  const init: RequestInit = { method: incoming.method ?? "GET", headers };
  if (body !== undefined) init.body = body as unknown as BodyInit;
  return new Request(`http://${incoming.headers.host ?? "127.0.0.1"}${incoming.url ?? "/"}`, init);
}
