/** Where a tool call stands. `rejected`: it was refused without running (strict mode, call limit). */
export type ToolCallStatus = "pending" | "completed" | "failed" | "rejected";

/** What answered a tool call. */
export type ToolCallSource =
  | { readonly kind: "stub"; readonly ruleId: string; readonly outcomeIndex: number }
  | { readonly kind: "real" }
  | { readonly kind: "strict" }
  | { readonly kind: "middleware"; readonly name: string };

/** An error as the trace keeps it. */
export interface TraceError {
  readonly name: string;
  readonly message: string;
}

/** One tool call of a turn. */
export interface ToolCall {
  /** The call id the agent framework gave (AI SDK `toolCallId`), or one tooltrace derived. */
  readonly id: string;
  /** The tool's own name (`list_tasks`). */
  readonly tool: string;
  /** The subagent path the tool lives at; `[]` for the root agent. */
  readonly path: readonly string[];
  /** `path` and `tool` joined with `/`: what a stub rule's `tool` names. */
  readonly qualifiedName: string;
  readonly input: unknown;
  readonly output?: unknown;
  readonly error?: TraceError;
  readonly status: ToolCallStatus;
  /** Which stub rule and outcome answered, or that the real tool ran. */
  readonly answeredBy?: ToolCallSource;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly durationMs?: number;
  /** The index of the turn this call belongs to. */
  readonly turnIndex: number;
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

/** One call to a model, filled by the mock model and the wire mock. */
export interface ModelCall {
  /** `anthropic`, `openai`, `openai.responses`, or the mock model's provider id. */
  readonly provider: string;
  readonly model: string;
  /** What the model was asked (the mock model's request view). */
  readonly request: unknown;
  /** What the model answered. */
  readonly reply: { readonly text: string; readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly input: unknown }[] };
  readonly streamed: boolean;
  readonly usage: Usage;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly error?: TraceError;
}

/** How a turn ended. */
export type TurnStatus = "running" | "completed" | "failed";

/** One user message and everything the agent did to answer it. */
export interface Turn {
  readonly index: number;
  readonly userMessage: string;
  /** The agent's final reply text. */
  readonly text: string;
  /** Every piece of assistant text in the turn, in order (intermediate steps included). */
  readonly assistantTexts: readonly string[];
  readonly toolCalls: readonly ToolCall[];
  readonly modelCalls: readonly ModelCall[];
  /** The sum of the model calls' usage, or what the agent reported when no model call was traced. */
  readonly usage: Usage;
  readonly status: TurnStatus;
  /** Problems tooltrace found in this turn that fail the test even if the agent recovered (strict mode, call limit). */
  readonly violations: readonly string[];
  /** Why the turn failed (the agent threw, or was aborted). */
  readonly error?: TraceError;
  readonly startedAt: number;
  readonly durationMs: number;
}

/** Anything the matchers accept: a turn, a session-like object with turns, or a list of calls. */
export interface TurnsHolder {
  readonly turns: readonly Turn[];
}
