import type { HttpRequestView } from "../http-mocks/types.js";
import type { MockModelRequest } from "../model/types.js";
import type { TurnRecord } from "../trace/records.js";
import type { HttpExchange } from "../trace/types.js";
import type { Pipeline } from "./pipeline.js";

/** A patched executor, as the catchers know it: the key the session looks its tool up by. */
export interface ExecutorHandle {
  /** The name it was first registered under, for calls from a session that does not know it. */
  readonly label: string;
}

/** A tool call, as the executor spy caught it. */
export interface CaughtToolCall {
  readonly kind: "tool";
  readonly executor: ExecutorHandle;
  readonly input: unknown;
  /** The id the framework passed (AI SDK `toolCallId`), when it did. */
  readonly callId: string | undefined;
  /** The tool the call names, for an executor that serves several (an MCP client's `callTool`). */
  readonly toolName?: string | undefined;
  /**
   * Seen on the wire: a tool of an agent in another process (a CLI), known only by the name the model
   * called. No executor of the session's runs it; the end of the chain sends it to the agent.
   */
  readonly wire?: boolean;
  /** What the trace keeps of the result, when the result itself is not data. */
  readonly traced?: ((result: unknown) => unknown) | undefined;
}

/** A model call, as the AI SDK model object or the wire mock caught it. */
export interface CaughtModelCall {
  readonly kind: "model";
  readonly provider: string;
  readonly model: string;
  readonly streamed: boolean;
  readonly request: MockModelRequest;
  readonly http?: HttpExchange;
}

/** An HTTP exchange that is not an LLM call, as the MSW catcher caught it. */
export interface CaughtHttpCall {
  readonly kind: "http";
  readonly method: string;
  readonly url: string;
  /** The request as plain JSON (query, lower-cased headers, parsed body), when the catcher read it. */
  readonly request?: HttpRequestView;
}

export type Caught = CaughtToolCall | CaughtModelCall | CaughtHttpCall;

/** What is running right now, as seen from inside the agent's code: the pipeline its calls go to. */
export interface TurnContext {
  readonly pipeline: Pipeline;
  readonly turn: TurnRecord;
  /** The subagent path active here; `[]` for the root agent. */
  readonly path: readonly string[];
  /** The `seq` of the tool call whose real executor is running here, if any. */
  readonly parentSeq?: number;
  /** A judge of the turn asking its model (after the turn): its calls are the judge's, in the turn's `judgeCalls`. */
  readonly judge?: string;
}
