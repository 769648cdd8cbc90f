import type { IncomingMessage, ServerResponse } from "node:http";
import { runInTurnContext } from "../pipeline/turn-context.js";
import { CALLS_WAIT_MS, type Gate, GATE_REPLY_HEADERS, type GateReply } from "./gate.js";
import { TOKEN_HEADER } from "./token.js";

/** A `node:http` request handler: `http.createServer(handler)`. */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => unknown;

/** An Express (or Connect) middleware: `app.use(middleware)`. Express's own request and response extend Node's. */
export type ExpressMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** `handler` behind the gate: see {@link Gate}. */
export function gateNodeHandler<H extends NodeHandler>(gate: Gate, handler: H): H {
  const gated = function tooltraceGated(this: unknown, request: IncomingMessage, response: ServerResponse): unknown {
    return throughGate(gate, request, response, () => handler.call(this, request, response));
  };
  return gated as H;
}

/** The gate as an Express middleware. */
export function gateExpress(gate: Gate): ExpressMiddleware {
  return (request, response, next) => {
    throughGate(gate, request, response, () => next());
  };
}

function throughGate(gate: Gate, request: IncomingMessage, response: ServerResponse, serve: () => unknown): unknown {
  const header = request.headers[TOKEN_HEADER];
  // Express strips a mount path from `url` and keeps the whole one in `originalUrl`.
  const path = (request as { readonly originalUrl?: string }).originalUrl ?? request.url ?? "/";
  const decision = gate.decide(Array.isArray(header) ? header.join(",") : header, request.method ?? "GET", path);
  if (decision.kind === "pass") return serve();
  if (decision.kind === "answer") {
    void decision.reply.then((reply) => send(response, reply));
    return undefined;
  }
  // `close` comes once the response went out, or the connection went away first: then the handler still runs,
  // under the request's rules, until it answers the response it can no longer send (or a bounded time passes).
  const handlerDone = handlerFinished(response);
  response.once("close", () => {
    if (response.writableFinished) decision.request.end();
    else decision.request.endAfterHandler(handlerDone, CALLS_WAIT_MS);
  });
  // A handler that reads the body with `request.on("data" | "end")` continues in listeners the socket calls,
  // outside the request's context: the request's and the response's events run inside it.
  const context = decision.request.context;
  for (const emitter of [request, response]) {
    const emit = emitter.emit;
    emitter.emit = function emitInTurn(this: unknown, ...args: Parameters<typeof emit>) {
      return runInTurnContext(context, () => emit.apply(this, args));
    } as typeof emit;
  }
  return runInTurnContext(context, serve);
}

function send(response: ServerResponse, reply: GateReply): void {
  if (response.headersSent) return;
  response.writeHead(reply.status, GATE_REPLY_HEADERS).end(reply.body);
}

/** Settles when the handler ends the response (`end()`, which Express's `send` and `json` call), even unsent. */
function handlerFinished(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const end = response.end;
    response.end = function endAndSettle(this: ServerResponse, ...args: Parameters<typeof end>) {
      resolve();
      return end.apply(this, args);
    } as typeof end;
  });
}
