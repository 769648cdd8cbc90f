import type { Responder } from "../model/responder.js";
import type { HttpRequestView } from "./steps/http-mock-step.js";
import type { MockModelRequest } from "../model/types.js";
import type { HttpExchange, ModelCall } from "../trace/types.js";
import type { Terminal } from "./types.js";

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
  /** Called with the record once it exists (the wire mock keeps a list of every call it answered). */
  readonly onRecord?: (record: ModelCall) => void;
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

/** Whoever handles caught interactions: a session. The catchers know nothing else of it. */
export interface InteractionHost {
  /** Runs one caught interaction through the session's chain and returns what the caller must see. */
  handle(context: TurnContext, caught: Caught, terminal: Terminal): unknown;
  /** The session's own mock model for the LLM wire, when it has one (`createSession({ llm })`). */
  readonly responder?: Responder;
  /** Where the session's model calls on the wire go when no mock model answers them (`createSession({ upstream })`). */
  readonly upstream?: true | string;
  /**
   * The session's seed (`createSession({ seed })`) and the number of this model call in the session, for the
   * mock model's responders: the same seed gives the same numbers however many sessions share a model.
   */
  nextModelSeed?(): { readonly seed: number | undefined; readonly call: number };
  /**
   * A request seen below every catcher (Node's `fetch` dispatcher) during a turn: it skipped MSW. Returns the
   * refusal when the session lets nothing unseen out (strict mode), after recording and reporting it.
   */
  uncaught?(context: TurnContext, method: string, url: string): string | undefined;
}

/** What is running right now, as seen from inside the agent's code. */
export interface TurnContext {
  readonly host: InteractionHost;
  /** Opaque to the catchers: the session's turn. */
  readonly turn: object;
  /** The subagent path active here; `[]` for the root agent. */
  readonly path: readonly string[];
  /** The `seq` of the tool call whose real executor is running here, if any. */
  readonly parentSeq?: number;
}
