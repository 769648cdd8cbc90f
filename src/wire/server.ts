import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { TooltraceError } from "../errors.js";
import { llmWire, type LlmWire, type LlmWireOptions } from "./llm-wire.js";

/** Options of {@link startLlmServer}. */
export interface LlmServerOptions extends LlmWireOptions {
  /** Your own MSW server: the wire handlers are added to it instead of starting a second one. */
  readonly server?: { use(...handlers: HttpHandler[]): void };
  /**
   * Without `server`: what tooltrace's own server does with requests that are not LLM calls. Default
   * `bypass` (they go out untouched); `error` makes a run hermetic.
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
 * its own MSW server that answers only the LLM APIs and lets every other request through (or not: see
 * `onUnhandledRequest`).
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
    return { ...wire, [Symbol.dispose]: wire.close };
  }
  if ((globalThis as Record<symbol, unknown>)[Symbol.for("fetch-interceptor")] !== undefined) {
    throw new TooltraceError(
      "another MSW server is already listening in this process, and two servers would intercept the same requests. " +
        "Pass yours: startLlmServer({ server }), or add the handlers yourself: server.use(...llmWire().handlers).",
    );
  }
  const server = setupServer(...wire.handlers);
  server.listen({ onUnhandledRequest: options.onUnhandledRequest ?? "bypass" });
  const close = () => {
    wire.close();
    server.close();
  };
  return { ...wire, close, [Symbol.dispose]: close };
}
