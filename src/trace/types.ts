import type { MockModelRequest } from "./request-view.js";
/** The kinds of interaction a session records in its log. */
export type InteractionKind = "tool" | "model" | "http";

/**
 * Where an interaction stands.
 * - `pending`: it has not finished (yet).
 * - `completed`: it returned a result.
 * - `failed`: it raised an error (a real failure, or a stub's `throw` outcome).
 * - `rejected`: it was refused without running: by strict mode, the call limit, or by the agent itself
 *   before the executor ran (invalid input, a denied approval).
 */
export type InteractionStatus = "pending" | "completed" | "failed" | "rejected";

/** @deprecated Use {@link InteractionStatus}. */
export type ToolCallStatus = InteractionStatus;

/** What answered an interaction: the step of the chain that produced the result the agent saw. */
export type AnswerSource =
  /**
   * A stub rule (or an HTTP mock), with the position of the outcome in its sequence (0-based), and for an HTTP
   * mock with a latency the milliseconds it waited (drawn from the session's seed for a range).
   */
  | { readonly kind: "stub"; readonly ruleId: string; readonly outcomeIndex: number; readonly delayMs?: number }
  /** An entry of a cassette (record and replay). */
  | { readonly kind: "cassette"; readonly entry: number }
  /** A middleware that answered without calling the next step. */
  | { readonly kind: "middleware"; readonly name: string }
  /** The real thing at the end of the chain: the tool's executor, the network. */
  | { readonly kind: "real" }
  /** The mock model (in process or on the wire). */
  | { readonly kind: "mock-model" }
  /** A handler of the user's own MSW server, which tooltrace joined (`startLlmServer({ server })`). */
  | { readonly kind: "msw-handler" }
  /** Strict mode refused it: nothing matched, so nothing ran. */
  | { readonly kind: "strict" }
  /** A fault injected on purpose (`faults`): the client got it instead of an answer; `where` names its declaration. */
  | { readonly kind: "fault"; readonly fault: string; readonly where: string }
  /**
   * It never reached tooltrace's chain: the agent answered it itself (it refused invalid input, an approval
   * was denied, the app supplied a client-side tool's result), seen in the model's conversation.
   */
  | { readonly kind: "outside" };

/** @deprecated Use {@link AnswerSource}. */
export type ToolCallSource = AnswerSource;

/** An error as the trace keeps it. */
export interface TraceError {
  readonly name: string;
  readonly message: string;
  /** A turn's error: where the user's code threw it (`file:line:column`), the first frame of it in the stack. */
  readonly at?: string;
}

/** How a step of the chain changed an interaction (a middleware rewrote the input or the result). */
export interface TraceChange {
  /** The step's name (a middleware's `name`). */
  readonly by: string;
  readonly what: "input" | "output";
}

/** What every record of the log has. */
export interface InteractionBase {
  /** 1-based position in the session's log: the order in which interactions started. */
  readonly seq: number;
  readonly kind: InteractionKind;
  /** The index of the turn this interaction belongs to. */
  readonly turnIndex: number;
  /** Wall-clock start, milliseconds since the epoch. */
  readonly startedAt: number;
  /** Monotonic start, milliseconds since the session was created. */
  readonly start: number;
  /** Monotonic end on the same clock; absent while pending. */
  readonly end?: number;
  /** `end - start`; absent while pending. */
  readonly durationMs?: number;
  readonly status: InteractionStatus;
  /** Which step answered; absent while pending. */
  readonly answeredBy?: AnswerSource;
  /** The error the agent saw, when it failed or was rejected. */
  readonly error?: TraceError;
  /** Steps that rewrote the input or the result on the way. */
  readonly changes?: readonly TraceChange[];
  /** True when it arrived after its turn had ended (a test that timed out, an agent still running). */
  readonly late?: boolean;
}

/** One tool call. */
export interface ToolCall extends InteractionBase {
  readonly kind: "tool";
  /** The call id the agent framework gave (AI SDK `toolCallId`), the model's id, or one tooltrace derived. */
  readonly id: string;
  /** The tool's own name (`list_tasks`). */
  readonly tool: string;
  /** The subagent path active at the call; `[]` for the root agent. */
  readonly path: readonly string[];
  /** `path` and `tool` joined with `/`: what a stub rule's `tool` names. */
  readonly qualifiedName: string;
  /** The input the answer was given (after any rewrite). */
  readonly input: unknown;
  /** The input as the agent sent it, when a step rewrote it. */
  readonly originalInput?: unknown;
  /** The result the agent saw. */
  readonly output?: unknown;
}

/** Token counts. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/** A text-only view of one message a model was given. */
export interface ModelMessageView {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly text: string;
}

/** A tool call in a model's reply. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** The HTTP side of an interaction that crossed the wire. */
export interface HttpExchange {
  readonly method: string;
  readonly url: string;
  /** The response status code, once answered. */
  readonly statusCode?: number;
}

/** One call to a model, made through the mock model (in process) or the wire mock. */
export interface ModelCall extends InteractionBase {
  readonly kind: "model";
  /** `anthropic.messages`, `openai.chat`, `openai.responses`, or the mock model's provider id. */
  readonly provider: string;
  readonly model: string;
  /** The subagent path active at the call; `[]` for the root agent. */
  readonly path: readonly string[];
  /** What the model was asked: the request view a mock model's script gets (messages, tools, tool results). */
  readonly request: MockModelRequest;
  /** What the model answered (empty while pending or when it failed). */
  readonly reply: { readonly text: string; readonly toolCalls: readonly ModelToolCall[] };
  readonly streamed: boolean;
  readonly usage: Usage;
  /**
   * What the call cost in USD: its usage times its model's price. Only a call a real model answered has one
   * (`upstream`, live): a mock model's, a cassette's replay or a fault's cost nothing. Absent when the model
   * has no price (see `prices`): never 0 for an unknown price.
   */
  readonly costUsd?: number;
  /** Which call of the mock model's script answered (1-based), once known. */
  readonly step?: number;
  /** The request and status, for calls that came over the wire. */
  readonly http?: HttpExchange;
  /** The judge that asked (`modelJudge`'s name): a judge's call, in the turn's `judgeCalls`, not the agent's. */
  readonly judge?: string | undefined;
  /** What the call waited on the provider's account (the run's limit, its rate limits): part of its duration. */
  readonly providerWait?: ProviderWait;
}

/**
 * Time a call to the real model spent waiting for the provider, not the agent: for a slot under the run's
 * `providers` limit, and out 429 or 529 answers whose `Retry-After` it waited before retrying (those answers
 * are neither the agent's calls nor its failures).
 */
export interface ProviderWait {
  /** Milliseconds waited for a slot under the run's limit (whole ms). */
  readonly queuedMs: number;
  /** Rate-limit answers (429, 529) waited out and retried. */
  readonly rateLimited: number;
  /** Milliseconds those answers asked to wait, in all. */
  readonly rateLimitedMs: number;
}

/** One HTTP exchange that is not an LLM call. */
export interface HttpCall extends InteractionBase {
  readonly kind: "http";
  readonly method: string;
  readonly url: string;
  /** The request body: parsed JSON when it was JSON, else its text; absent without a body. */
  readonly requestBody?: unknown;
  /** The response status code; absent while pending and when the request got a network error. */
  readonly statusCode?: number;
  /** The `seq` of the tool call during which the request was made, if any. */
  readonly parentSeq?: number;
}

/** Any record of the log. */
export type Interaction = ToolCall | ModelCall | HttpCall;

/** How a turn ended. */
export type TurnStatus = "running" | "completed" | "failed";

/** One user message and everything the agent did to answer it. */
export interface Turn {
  readonly index: number;
  /** The user message as the agent got it. */
  readonly userMessage: string;
  /** The message as `send` was given it, when a middleware's `beforeEval` rewrote it. */
  readonly originalUserMessage?: string;
  /** What each middleware's `afterEval` returned, by middleware name (a grade, a verdict); `{}` without any. */
  readonly results: Readonly<Record<string, unknown>>;
  /** The agent's final reply text. */
  readonly text: string;
  /**
   * Every piece of text the agent said to the user in this turn, in order: the `assistantTexts` it returned
   * (intermediate steps included, as `aiSdkAgent` lists them), or its final text alone. Never the model's
   * replies the agent did not pass on: those are in `modelCalls`.
   */
  readonly assistantTexts: readonly string[];
  /** The turn's tool calls, in the order they started (a view of the session's log). */
  readonly toolCalls: readonly ToolCall[];
  /** The turn's model calls, in order (a view of the session's log). */
  readonly modelCalls: readonly ModelCall[];
  /**
   * The model calls judges of this turn made (`modelJudge`, `ctx.callLLM` after it): recorded, replayed and
   * refused by strict mode as the agent's are, and kept apart from them (not in `modelCalls` or `usage`).
   */
  readonly judgeCalls: readonly ModelCall[];
  /** The turn's HTTP exchanges other than LLM calls, in order (a view of the session's log). */
  readonly httpCalls: readonly HttpCall[];
  /** The qualified names of the tools the session was given (for "did you mean" in the matchers). */
  readonly tools: readonly string[];
  /** The sum of the model calls' usage, or what the agent reported when no model call was traced. */
  readonly usage: Usage;
  /**
   * What the turn's calls to a real model cost in USD, its judges' included: the sum of their `costUsd`.
   * Absent when none had a price.
   */
  readonly costUsd?: number;
  /** How many of the turn's calls to a real model had no price (their cost is not in `costUsd`); absent for none. */
  readonly unpricedCalls?: number;
  readonly status: TurnStatus;
  /** Problems tooltrace found in this turn that fail the test even if the agent recovered. */
  readonly violations: readonly string[];
  /** Why the turn failed (the agent threw, was aborted, or timed out). */
  readonly error?: TraceError;
  readonly startedAt: number;
  readonly durationMs: number;
  /** What judges scored this turn (`toSatisfyJudge`), in the order they ran. */
  readonly scores?: readonly JudgeRecord[];
}

/** One judge's score of a turn, as the trace keeps it. */
export interface JudgeRecord {
  /** The judge's name (`answer`, `trajectory`, a function's name). */
  readonly judge: string;
  /** Between 0 and 1. */
  readonly score: number;
  /** The score the assertion asked for. */
  readonly threshold: number;
  readonly pass: boolean;
  readonly reason?: string;
}

/** Anything the matchers accept besides a turn or a list of calls: a session-like object with turns. */
export interface TurnsHolder {
  readonly turns: readonly Turn[];
}
