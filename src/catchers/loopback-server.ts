import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { ownLoopbackServers as own } from "./own-loopback.js";
import { holdWireMock } from "../pipeline/http-catching.js";
import type { AddressInfo } from "node:net";
import { message } from "../exits/errors.js";
import { type WireReply, type WireRequest, WireNetworkError, wireAnswerOf } from "../wire/wire-http.js";

/** A `node:http` server on 127.0.0.1 serving a fetch-style handler. */
export interface LoopbackServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `handler` on 127.0.0.1 at a free port, for agents in another process (a CLI) or any client that
 * should reach the mock over a real socket. Requests on a session's route (`${url}${session.route}/v1`) are
 * attributed to that session's running turn. The wire mock's own handler (`createLlmAnswer().answer`) is
 * served straight from the socket, without making a `Request` and a `Response` of each exchange.
 *
 * @example
 * ```ts
 * const llm = createLlmAnswer({ respond });
 * const server = await serveOnLoopback(llm.answer);
 * const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}${session.route}/v1` });
 * ```
 */
export async function serveOnLoopback(handler: (request: Request) => Promise<Response>): Promise<LoopbackServer> {
  const wire = wireAnswerOf(handler) ?? (async (request: WireRequest) => fromResponse(await handler(toRequest(request as SocketRequest))));
  const server = createServer((incoming, outgoing) => {
    void respond(wire, incoming, outgoing);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const release = holdWireMock();
  const url = `http://127.0.0.1:${port}`;
  own.add(url);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        own.delete(url);
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(
  answer: (request: WireRequest) => Promise<WireReply>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  try {
    const reply = await answer(new SocketRequest(incoming, await readBody(incoming)));
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.body === null) {
      outgoing.writeHead(reply.status, headers).end();
      return;
    }
    if (typeof reply.body === "string" || reply.body instanceof Uint8Array) {
      headers["content-length"] = String(Buffer.byteLength(reply.body));
      outgoing.writeHead(reply.status, headers).end(reply.body);
      return;
    }
    // A stream goes out as it comes (a live upstream's events reach the client as they arrive).
    outgoing.writeHead(reply.status, headers);
    const reader = reply.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) outgoing.write(chunk.value);
    outgoing.end();
  } catch (error) {
    // A body that broke after its headers went out (a dropped stream, on purpose or not) drops the connection,
    // and so does a connection failing before any answer.
    if (error instanceof WireNetworkError) {
      outgoing.destroy();
      return;
    }
    if (outgoing.headersSent) {
      // What was written reaches the client first (the events before a cut), then the connection drops.
      const socket = outgoing.socket;
      socket?.end(() => socket.destroy());
      return;
    }
    outgoing.writeHead(500, { "content-type": "application/json" });
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

/** A request read off the socket, with what the wire mock reads of it. */
class SocketRequest implements WireRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: SocketHeaders;

  constructor(
    incoming: IncomingMessage,
    readonly body: Buffer | undefined,
  ) {
    this.method = incoming.method ?? "GET";
    this.url = `http://${incoming.headers.host ?? "127.0.0.1"}${incoming.url ?? "/"}`;
    this.headers = new SocketHeaders(incoming.rawHeaders);
  }

  text(): Promise<string> {
    return Promise.resolve(this.body === undefined ? "" : this.body.toString("utf8"));
  }
}

/** Header names lower-cased, repeated values joined as `Headers` joins them. */
class SocketHeaders {
  private readonly values = new Map<string, string>();

  constructor(raw: readonly string[]) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = (raw[i] as string).toLowerCase();
      const value = raw[i + 1] as string;
      const earlier = this.values.get(name);
      this.values.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }

  forEach(fn: (value: string, name: string) => void): void {
    for (const [name, value] of this.values) fn(value, name);
  }
}

/** A web `Request` for a handler that is not the wire mock's own. */
function toRequest(request: SocketRequest): Request {
  const headers: [string, string][] = [];
  request.headers.forEach((value, name) => {
    headers.push([name, value]);
  });
  const init: RequestInit = { method: request.method, headers };
  if (request.body !== undefined) init.body = request.body as unknown as BodyInit;
  return new Request(request.url, init);
}

async function fromResponse(response: Response): Promise<WireReply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const streamed = (headers["content-type"] ?? "").includes("text/event-stream");
  return {
    status: response.status,
    headers,
    body: response.body === null ? null : streamed ? response.body : new Uint8Array(await response.arrayBuffer()),
  };
}
