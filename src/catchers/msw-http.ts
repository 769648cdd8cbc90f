import { bypass, http, type HttpHandler } from "msw";
import type { Terminal } from "../chain/types.js";
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
  return http.all("*", async ({ request }) => {
    const context = currentTurnContext();
    if (context === undefined) return undefined;
    const terminal: Terminal = { source: NETWORK, live: true, run: () => fetch(bypass(request)) };
    try {
      return (await context.host.handle(context, { kind: "http", method: request.method, url: request.url }, terminal)) as Response;
    } catch {
      return Response.error();
    }
  });
}
