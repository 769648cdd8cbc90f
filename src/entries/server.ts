/**
 * Testing a deployed agent: `tooltraceServer` is the gate a server puts in front of its agent's route (Hono,
 * Express, `node:http`, fetch-style handlers), and `remoteAgent` the session agent that talks to it with
 * signed, short-lived tokens carrying the session's stub rules.
 *
 * @module tooltrace/server
 */
export {
  tooltraceServer,
  type TooltraceServer,
  type TooltraceServerOptions,
} from "../server/tooltrace-server.js";
export { remoteAgent, type RemoteAgentOptions } from "../server/remote-agent.js";
export type { RemoteMessage, RemoteReply } from "../server/remote-reply.js";
export type { ExpressMiddleware, NodeHandler } from "../server/node-adapter.js";
export type { FetchHandler, HonoContextLike, HonoMiddleware } from "../server/fetch-adapter.js";
export type { LanguageModelLike, ModelCallOptionsLike } from "../server/traced-model.js";
export type { RecordedCalls } from "../session/types.js";
export {
  CLOCK_SKEW_MS,
  DEFAULT_TOKEN_LIFETIME_MS,
  GATE_HEADER,
  MAX_TOKEN_LENGTH,
  MAX_TOKEN_LIFETIME_MS,
  MIN_SECRET_LENGTH,
  SECRET_VARIABLE,
  TOKEN_HEADER,
} from "../server/token.js";
