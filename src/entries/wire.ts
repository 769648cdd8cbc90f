/**
 * The mock model on the LLM wire without MSW: `createLlmAnswer().answer(request)`, a fetch-style handler for
 * the Anthropic and OpenAI APIs, and `serveOnLoopback` to serve it on 127.0.0.1 for an agent in another
 * process. (`tooltrace/msw` has the MSW handlers.)
 *
 * @module tooltrace/wire
 */
export { createLlmAnswer, type LlmAnswer, type LlmAnswerOptions } from "../catchers/wire-answer.js";
export { serveOnLoopback, type LoopbackServer } from "../catchers/loopback-server.js";
export { DEFAULT_BASE_URLS } from "../wire/base-urls.js";
export type { WireApi } from "../wire/codec.js";
export type { WireRequest, WireReply } from "../wire/wire-http.js";
