import { syncBuiltinESMExports } from "node:module";
import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { TooltraceError } from "../errors.js";
import { currentScope } from "../session/scope.js";
import { catchHttp } from "./msw-http.js";
import { holdHttpCaught } from "./msw-http-flag.js";
import { installNetworkGuard } from "./network-guard.js";
import { llmWire, type LlmWire, type LlmWireOptions } from "./msw-llm-wire.js";

/** Options of {@link startLlmServer}. */
export interface LlmServerOptions extends LlmWireOptions {
  /** Your own MSW server: the wire handlers are added to it instead of starting a second one. */
  readonly server?: { use(...handlers: HttpHandler[]): void };
  /**
   * Without `server`: what tooltrace's own server does with requests that are not LLM calls and are made
   * outside a session's turn. Default `bypass` (they go out untouched); `error` makes a run hermetic.
   * Requests made during a turn are traced (`turn.httpCalls`) and, in a strict session, refused.
   */
  readonly onUnhandledRequest?: "bypass" | "warn" | "error";
}

/** A running wire mock. */
export interface LlmServer extends LlmWire {
  /** Stops answering (and stops the MSW server, when this call started one). */
  close(): void;
  [Symbol.dispose](): void;
}

/**
 * Starts answering the LLM APIs.
 *
 * With `{ server }`, the handlers join your MSW server (its `onUnhandledRequest` policy stays in force), and
 * `close()` switches them off so requests fall through to your other handlers. Without it, tooltrace starts
 * its own MSW server that answers the LLM APIs, traces every other request a session's turn makes (and
 * refuses it in a strict session), and lets the rest through (or not: see `onUnhandledRequest`).
 *
 * Started inside a test, it is closed when the test ends, also when the test fails or times out.
 *
 * MSW servers in one process share their interceptors, so two servers fight over every request and the
 * first to close takes the interception of both with it. When another server is already listening this
 * throws and says to pass it as `server`; if yours starts later, start it first instead, or add
 * `llmWire().handlers` to it.
 */
export function startLlmServer(options: LlmServerOptions = {}): LlmServer {
  const wire = llmWire(options);
  if (options.server) {
    options.server.use(...wire.handlers);
    return closeWithTest({ ...wire, [Symbol.dispose]: wire.close });
  }
  if (anotherMswServerListening()) {
    throw new TooltraceError(
      "another MSW server is already listening in this process, and two servers would intercept the same requests. " +
        "Pass yours: startLlmServer({ server }), or add the handlers yourself: server.use(...llmWire().handlers).",
    );
  }
  const server = setupServer(...wire.handlers, catchHttp());
  const policy = options.onUnhandledRequest ?? "bypass";
  // msw 3 renamed the option (`onUnhandledFrame`); each major ignores the other's name.
  server.listen({ onUnhandledRequest: policy, onUnhandledFrame: policy } as Parameters<typeof server.listen>[0]);
  // MSW patches `http.request` on node's module objects; `import { request } from "node:http"` keeps the
  // original unless the builtins' ESM exports are synced, and such a request would slip past interception.
  syncBuiltinESMExports();
  const removeGuard = installNetworkGuard();
  const releaseCaught = holdHttpCaught();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    wire.close();
    server.close();
    removeGuard();
    releaseCaught();
    syncBuiltinESMExports();
  };
  return closeWithTest({ ...wire, close, [Symbol.dispose]: close });
}

function closeWithTest(server: LlmServer): LlmServer {
  currentScope()?.resources.add({ close: () => server.close() });
  return server;
}

/** msw 2 sets `globalThis[Symbol.for("fetch-interceptor")]` while listening; msw 3 marks its interceptors ACTIVE in a global registry. */
function anotherMswServerListening(): boolean {
  const global = globalThis as Record<symbol | string, unknown>;
  if (global[Symbol.for("fetch-interceptor")] !== undefined) return true;
  const registry = global.__MSW_INTERCEPTORS_REGISTRY as Map<symbol, { readyState?: string }> | undefined;
  return registry?.get(Symbol.for("node-http-request-source"))?.readyState === "ACTIVE";
}
