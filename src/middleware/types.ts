import type { ToolCall, Turn } from "../trace/types.js";

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What every phase of a middleware sees of the turn it runs in. One `data` bag per turn flows through every
 * phase of every middleware, in declaration order.
 */
export interface MiddlewareContext {
  /** The session's name. */
  readonly sessionName: string;
  /** The turn's index in its session (0-based). */
  readonly turnIndex: number;
  /** Scratch values shared by every phase and every middleware of this turn. */
  readonly data: Record<string, unknown>;
  /** What earlier middleware's `afterEval` returned in this turn, by middleware name. */
  readonly results: Readonly<Record<string, unknown>>;
  /**
   * Ends the turn now: the agent's signal aborts, the turn fails with `reason`, and this phase stops. Never
   * returns.
   */
  abort(reason: string): never;
  /**
   * Asks the session's model (`createSession({ llm })`, the mock model in tests) one prompt, with no tools,
   * and returns its text. The call is traced as a model call of the turn (provider `tooltrace.callLLM`).
   */
  callLLM(prompt: string): Promise<string>;
}

/** What `onToolCall` gets for one tool call. */
export interface ToolCallMiddlewareArgs {
  /** The tool's qualified name (`search`, `researcher/search`). */
  readonly tool: string;
  /** The input as it stands at this middleware, after earlier middleware rewrote it. */
  readonly input: unknown;
  /** The call's id, as the model gave it (when known). */
  readonly callId: string;
  /**
   * Runs the rest of the chain (later middleware, stubs, the real tool) with `input` (default: unchanged) and
   * returns what it answered; a failing tool rejects (or throws, for a synchronous one). Call it at most once.
   */
  handler(input?: unknown): MaybePromise<unknown>;
  /**
   * Fails the call with `error` (a message or an `Error`), as if the tool had thrown it: the agent sees a
   * failed tool call and can recover; the test does not fail for it. Never returns.
   */
  fail(error: string | Error): never;
  readonly ctx: MiddlewareContext;
}

/** What `beforeEval` gets: the user message about to reach the agent. */
export interface BeforeEvalArgs {
  /** The message as it stands, after earlier middleware rewrote it. */
  readonly message: string;
  readonly ctx: MiddlewareContext;
}

/** What `afterEval` gets: the finished run, before the turn is closed. */
export interface AfterEvalArgs {
  /** The user message as the agent got it. */
  readonly message: string;
  /** The agent's final answer. */
  readonly answer: string;
  /** The turn's tool calls as they ended: the input each ran with and the result the agent saw. */
  readonly toolCalls: readonly ToolCall[];
  /** The whole turn as recorded so far (its status is still `running`). */
  readonly turn: Turn;
  readonly ctx: MiddlewareContext;
}

/**
 * A middleware around a session's turns: each phase is optional. Given to a session
 * (`createSession({ middleware })`) or to every session of a test run (`tooltrace({ middleware })`).
 * Names are unique; a middleware that throws fails the turn and the test, naming it.
 *
 * @example
 * ```ts
 * const noDrafts: Middleware = {
 *   name: "no-drafts",
 *   onToolCall: ({ tool, input, handler }) => (tool === "send_email" ? { sent: false, reason: "drafts only" } : handler(input)),
 * };
 * ```
 */
export interface Middleware {
  /** Unique in a session; the trace names it when it answered or changed something. */
  readonly name: string;
  /** Before the agent runs: return a string to rewrite the user message, or nothing to keep it. */
  beforeEval?(args: BeforeEvalArgs): MaybePromise<string | undefined | void>;
  /**
   * Around each tool call, once per call, in declaration order (Koa-style): return a result without calling
   * `handler` (the tool does not run; the agent sees the result), call `handler(changedInput)` (the tool runs
   * with new arguments), or transform what `handler` returned (the agent sees the transformed result).
   */
  onToolCall?(args: ToolCallMiddlewareArgs): MaybePromise<unknown>;
  /**
   * After the agent answered: grade the run. What it returns is kept as `turn.results[name]` (nothing is kept
   * for `undefined`), readable by later middleware as `ctx.results[name]` and by matchers.
   */
  afterEval?(args: AfterEvalArgs): MaybePromise<unknown>;
}
