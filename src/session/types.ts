import type { ToolsInput } from "../intercept/bind-tools.js";
import type { ToolStub } from "../stubs/types.js";
import type { ToolCall, Turn, TurnsHolder, Usage } from "../trace/types.js";

/** What an agent function is given besides the user message. */
export interface AgentContext<TMessage> {
  /** The conversation so far, in the agent's own message format. */
  readonly history: readonly TMessage[];
  /** Aborted when the turn is cancelled or times out. */
  readonly signal: AbortSignal;
  /** The turn being recorded. */
  readonly turn: Turn;
}

/** An agent's answer: the reply text, or the text with the turn's new messages and usage. */
export type AgentReply<TMessage> =
  | string
  | {
      /** The final reply text. */
      readonly text: string;
      /** Every piece of assistant text in the turn; defaults to `[text]`. */
      readonly assistantTexts?: readonly string[];
      /** The messages this turn added to the conversation (user message included), in the agent's format. */
      readonly messages?: readonly TMessage[];
      /** Token usage the agent saw; ignored when the mock model traced the model calls itself. */
      readonly usage?: Partial<Usage>;
    };

/** Any function that answers a user message. */
export type Agent<TMessage = unknown> = (
  message: string,
  context: AgentContext<TMessage>,
) => AgentReply<TMessage> | Promise<AgentReply<TMessage>>;

/** What to do with stub rules that no call used. */
export type UnusedRulesPolicy = "warn" | "error" | "ignore";

/** Options of {@link createSession}. */
export interface SessionOptions<TMessage = unknown> {
  /** The agent under test. */
  readonly agent: Agent<TMessage>;
  /** The agent's live tools (AI SDK tools or plain functions), patched in place while the session is open. */
  readonly tools?: ToolsInput;
  /** Subagents' tools by path (`researcher`, `researcher/assistant`), for rules such as `researcher/list_tasks`. */
  readonly subagents?: { readonly [path: string]: ToolsInput };
  /** Stub rules, tried top to bottom; first match wins. */
  readonly stubs?: readonly ToolStub[];
  /** When true, a call that no rule matches fails and the real tool never runs. */
  readonly strict?: boolean;
  /** Overrides the plugin's policy for unused rules in this session. */
  readonly unusedRules?: UnusedRulesPolicy;
  /** A name for messages; defaults to `session 1`, `session 2`, ... */
  readonly name?: string;
  /** Messages the conversation starts with. */
  readonly history?: readonly TMessage[];
}

/** Options of one {@link Session.send}. */
export interface SendOptions {
  /** Cancels the turn; the agent sees it on `context.signal`. */
  readonly signal?: AbortSignal;
  /** Fails the turn after this many milliseconds. */
  readonly timeoutMs?: number;
}

/** A conversation with the agent under test, recorded turn by turn. */
export interface Session<TMessage = unknown> extends TurnsHolder {
  readonly name: string;
  readonly turns: readonly Turn[];
  /** Every tool call of every turn, in order. */
  readonly toolCalls: readonly ToolCall[];
  readonly history: readonly TMessage[];
  readonly strict: boolean;
  readonly unusedRules: UnusedRulesPolicy | undefined;
  /** Problems that fail the test even when the agent recovered (strict mode, call limit). */
  readonly violations: readonly string[];
  /** Sends a user message and records the turn. An agent that throws gives a failed turn, not a rejection. */
  send(message: string, options?: SendOptions): Promise<Turn>;
  /**
   * Returns the violations and clears them, so the after-test check does not fail the test. For tests
   * that exercise strict mode on purpose and assert on the violations themselves.
   */
  takeViolations(): string[];
  /** How many calls each rule has answered so far. */
  ruleUsage(): ReadonlyMap<string, number>;
  /** Ids of rules no call has used yet. */
  unusedRuleIds(): string[];
  /** Restores every patched tool. Idempotent; the plugin calls it after each test. */
  close(): import("./scope.js").SessionReport;
  [Symbol.dispose](): void;
}
