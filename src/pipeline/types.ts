import type { AnswerSource, Interaction, InteractionKind } from "../trace/types.js";

/**
 * What one step of the chain sees of an interaction, and how it answers. The same context for tool calls,
 * model calls and HTTP exchanges.
 */
export interface StepContext {
  readonly kind: InteractionKind;
  /** The record as it stands (read-only): a tool call's id, tool and path, a model call's provider, ... */
  readonly record: Readonly<Interaction>;
  /** A tool call's qualified name (`researcher/list_tasks`), `provider model`, or `METHOD url`. */
  readonly name: string;
  /** The input as the agent sent it: a tool's arguments, a model's request view, an HTTP `Request`. */
  readonly originalInput: unknown;
  /** The input as it stands at this step, after earlier steps rewrote it. */
  readonly input: unknown;
  /** True when the session is strict: nothing unanswered may go live. */
  readonly strict: boolean;
  /** True when the end of the chain would go live (run the real tool, reach the network). */
  readonly live: boolean;
  /** The session's name, for messages. */
  readonly sessionName: string;
  /**
   * Answers with `value` (the agent sees it as the result): later steps and the real thing do not run.
   * Returns `value`, so a step can `return ctx.answer(value, source)`.
   */
  answer<T>(value: T, source: AnswerSource): T;
  /** Answers with an error the agent sees thrown (a rejection for an async executor). The call is `failed`. */
  fail(error: unknown, source: AnswerSource): never;
  /**
   * Refuses the call: it is `rejected`, nothing ran, and `message` is a violation that fails the test even
   * if the agent recovers.
   */
  reject(message: string, source: AnswerSource): never;
  /** Records a problem that fails the test even if the agent recovers, without answering. */
  violation(message: string): void;
  /**
   * Applies `fn` to what `next()` returned (a value or a promise) and notes that this step changed the
   * result, so the trace says who changed what the agent saw.
   */
  transform(result: unknown, fn: (value: unknown) => unknown): unknown;
}

/**
 * One step around every interaction, Koa-style. Answer it (`ctx.answer`, `ctx.fail`, `ctx.reject`, or
 * return without calling `next`), pass it on with `next()` or a rewritten input `next(input)`, or
 * transform what `next` returned. May return a value or a promise; a synchronous tool stays synchronous
 * as long as no step makes it a promise.
 */
export interface Step {
  /** Shown in the trace when the step answers or changes something. */
  readonly name: string;
  /** The kinds of interaction the step acts on; the others never reach it. Default: every kind. */
  readonly kinds?: readonly InteractionKind[];
  run(ctx: StepContext, next: (input?: unknown) => unknown): unknown;
}

/** The real thing at the end of the chain. */
export interface Terminal {
  /** How the trace labels an answer from it. */
  readonly source: AnswerSource;
  /** True when running it leaves the test's control (a real tool, the network); strict mode refuses those. */
  readonly live: boolean;
  run(input: unknown, progress: TerminalProgress): unknown;
  /** What `run` would answer, without spending what it spends (the mock model's script step); if it can tell. */
  readonly peek?: (input: unknown, progress: TerminalProgress) => unknown;
}

/** What the real thing may tell the trace while it runs. */
export interface TerminalProgress {
  /** The mock model's script step answering this call (1-based). */
  step(n: number): void;
}
