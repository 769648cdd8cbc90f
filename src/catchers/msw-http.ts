import { bypass, http, type HttpHandler } from "msw";
import type { Terminal } from "../chain/types.js";
import { parseMaybeJson } from "../model/request-view.js";
import type { HttpRequestView } from "../steps/http-mock-step.js";
import { markHttpCaught } from "./msw-http-flag.js";
import { currentTurnContext } from "./turn-context.js";

const NETWORK = { kind: "real" } as const;

/**
 * A catch-all MSW handler for HTTP requests made during a session's turn: each becomes an `http`
 * interaction in the session's log. At the end of the chain the request goes out for real (MSW's
 * `bypass`), unless strict mode refuses it, which the agent sees as a network error. Requests made outside
 * a turn fall through to the server's unhandled-request policy. Put it after every other handler.
 */
export function httpCatcher(): HttpHandler {
  markHttpCaught();
  return catchHttp();
}

/** The catcher for tooltrace's own server, which says itself when it is listening. */
export function catchHttp(): HttpHandler {
  return http.all("*", async ({ request }) => {
    const context = currentTurnContext();
    if (context === undefined) return undefined;
    const terminal: Terminal = { source: NETWORK, live: true, run: () => fetch(bypass(request)) };
    try {
      const view = await requestView(request);
      return (await context.host.handle(context, { kind: "http", method: request.method, url: request.url, request: view }, terminal)) as Response;
    } catch {
      return Response.error();
    }
  });
}

/** The request as HTTP mocks match it and the trace keeps it: plain JSON, the body read from a clone. */
async function requestView(request: Request): Promise<HttpRequestView> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const text = request.body === null ? "" : await request.clone().text();
  const body = text === "" ? undefined : parseMaybeJson(text);
  return { method: request.method, url: request.url, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body };
}
