/** The mock model on the LLM wire: MSW handlers for the Anthropic and OpenAI APIs. Needs `msw` (a peer dependency). */
export { llmWire, type LlmWire, type LlmWireOptions } from "./llm-wire.js";
export { startLlmServer, type LlmServer, type LlmServerOptions } from "./server.js";
export { DEFAULT_BASE_URLS } from "./base-urls.js";
export type { WireApi } from "./codec.js";
