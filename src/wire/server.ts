import { setupServer } from "msw/node";
import { llmWire, type LlmWire, type LlmWireOptions } from "./llm-wire.js";

/** A running wire mock with its own MSW server. */
export interface LlmServer extends LlmWire {
  /** Stops intercepting. Call it in `afterAll` (or use `await using`). */
  close(): void;
  [Symbol.dispose](): void;
}

/**
 * Starts an MSW server that answers only the LLM APIs and lets every other request through untouched, so
 * it sits beside a user's own MSW server (whose `onUnhandledRequest` policy still applies to the rest).
 */
export function startLlmServer(options: LlmWireOptions = {}): LlmServer {
  const wire = llmWire(options);
  const server = setupServer(...wire.handlers);
  server.listen({ onUnhandledRequest: "bypass" });
  const close = () => server.close();
  return { ...wire, calls: wire.calls, close, [Symbol.dispose]: close };
}
