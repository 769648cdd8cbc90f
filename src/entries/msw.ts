/**
 * The mock model on the LLM wire: MSW handlers for the Anthropic and OpenAI APIs (needs `msw`, a peer
 * dependency), and the transport-free `createLlmAnswer` they serve, for a `node:http` server of your own.
 *
 * @module tooltrace/msw
 */
export { llmWire, type LlmWire, type LlmWireOptions } from "../catchers/msw-llm-wire.js";
export { startLlmServer, type JoinableServer, type LlmServer, type LlmServerOptions } from "../catchers/msw-server.js";
export { httpCatcher } from "../catchers/msw-http.js";
export { createLlmAnswer, type LlmAnswer, type LlmAnswerOptions } from "../catchers/wire-answer.js";
export { DEFAULT_BASE_URLS } from "../wire/base-urls.js";
export type { WireApi } from "../wire/codec.js";
export type { WireRequest, WireReply } from "../wire/wire-http.js";
