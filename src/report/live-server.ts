import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { outText } from "../exits/out.js";

/** What the page asks the server to rerun: one test, the file of one test, or every failed test. */
export interface RerunRequest {
  readonly what: "test" | "file" | "failed";
  /** The test's id (for `test` and `file`). */
  readonly id?: string;
}

/** The server's answer to a rerun: started, or refused with a message the page shows. */
export type RerunAnswer = { readonly ok: true } | { readonly ok: false; readonly status: number; readonly message: string };

/** What a {@link ViewerServer} serves. */
export interface ViewerServerOptions {
  /** The viewer's page, with the server's token in it. */
  page(token: string): string;
  /** The first event a page gets when it connects: the whole report as it stands. */
  snapshot(): unknown;
  /** Reruns what the page asked; absent, the server answers a rerun with 501 (nothing to rerun with). */
  rerun?(request: RerunRequest): Promise<RerunAnswer> | RerunAnswer;
  /** Keeps the process alive while serving (`show --serve`); the watch session's server does not. */
  readonly keepAlive?: boolean;
}

/** A viewer served on 127.0.0.1: its URL, events pushed to every open page, and its end. */
export interface ViewerServer {
  readonly url: string;
  /** Sends `payload` (JSON) as the event `name` to every open page. */
  push(name: string, payload: unknown): void;
  /** Sends `json`, a value's JSON already, as the event `name` to every open page. */
  pushJson(name: string, json: string): void;
  /** Serves `options`' page, snapshot and reruns from now on: same URL, same token, the open pages kept. */
  serve(options: Omit<ViewerServerOptions, "keepAlive">): void;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
};

/**
 * Serves the viewer on 127.0.0.1, on a free port: `GET /` the page, `GET /events` its updates as Server-Sent
 * Events, `POST /rerun` a rerun. Nothing else is answered (404), a request whose Host is not this server's
 * own `127.0.0.1:port` is refused (DNS rebinding), and a rerun must come from the page itself: same origin,
 * with the random token the page holds.
 */
export async function startViewerServer(first: ViewerServerOptions): Promise<ViewerServer> {
  let options: Omit<ViewerServerOptions, "keepAlive"> = first;
  const token = randomBytes(24).toString("hex");
  const clients = new Set<ServerResponse>();
  let host = "";
  const server = createServer((request, response) => {
    void answer(request, response).catch(() => plain(response, 500, "the viewer's server failed on this request"));
  });
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.headers.host !== host) return plain(response, 403, `this server answers only http://${host}/`);
    const url = new URL(request.url ?? "/", `http://${host}`);
    const path = url.pathname;
    if (path !== "/" && path !== "/index.html" && path !== "/events" && path !== "/rerun") return plain(response, 404, "not found");
    const method = path === "/rerun" ? "POST" : "GET";
    if (request.method !== method && !(method === "GET" && request.method === "HEAD")) return plain(response, 405, "method not allowed");
    if (path === "/rerun") return rerun(request, response);
    if (path === "/events") {
      if (!same(url.searchParams.get("token") ?? "", token)) return plain(response, 403, "no token");
      response.writeHead(200, { ...SECURITY_HEADERS, "content-type": "text/event-stream; charset=utf-8", connection: "keep-alive" });
      clients.add(response);
      response.on("close", () => clients.delete(response));
      return send(response, "report", JSON.stringify(options.snapshot()));
    }
    const html = outText("viewer page", options.page(token));
    response.writeHead(200, { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "x-frame-options": "DENY" });
    response.end(request.method === "HEAD" ? undefined : html);
  };
  const rerun = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const origin = request.headers.origin;
    if (origin !== `http://${host}` || !same(String(request.headers["x-tooltrace-token"] ?? ""), token))
      return plain(response, 403, "a rerun comes from the viewer's own page only");
    if (!String(request.headers["content-type"] ?? "").startsWith("application/json")) return plain(response, 415, "JSON only");
    const body = await readBody(request, 4096);
    const asked = parseRerun(body);
    if (asked === undefined) return plain(response, 400, 'expected {"what": "test" | "file" | "failed", "id"?: string}');
    if (options.rerun === undefined) return plain(response, 501, "nothing to rerun with: this report is served from disk");
    const result = await options.rerun(asked);
    if (result.ok) return plain(response, 202, "rerunning");
    return plain(response, result.status, result.message);
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (first.keepAlive !== true) server.unref();
  // A comment line now and then keeps an idle page's connection open through proxies and sleeping tabs.
  const ping = setInterval(() => {
    for (const client of clients) client.write(": ping\n\n");
  }, 15_000).unref();
  const pushJson = (name: string, json: string) => {
    for (const client of clients) send(client, name, json);
  };
  return {
    url: `http://${host}/`,
    push: (name, payload) => {
      // No page open: nothing to turn into JSON.
      if (clients.size > 0) pushJson(name, JSON.stringify(payload));
    },
    pushJson,
    serve(next) {
      options = next;
    },
    close() {
      clearInterval(ping);
      for (const client of clients) client.end();
      clients.clear();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** One event: its JSON on one `data:` line (JSON holds no raw line breaks). */
function send(response: ServerResponse, name: string, json: string): void {
  response.write(`event: ${name}\ndata: ${outText("viewer page", json)}\n\n`);
}

function plain(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" });
  response.end(outText("viewer page", text));
}

function same(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > limit) request.destroy(new Error("too large"));
    });
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

function parseRerun(body: string): RerunRequest | undefined {
  try {
    const value = JSON.parse(body) as { what?: unknown; id?: unknown };
    if (value.what !== "test" && value.what !== "file" && value.what !== "failed") return undefined;
    if (value.what !== "failed" && typeof value.id !== "string") return undefined;
    return typeof value.id === "string" ? { what: value.what, id: value.id } : { what: value.what };
  } catch {
    return undefined;
  }
}
