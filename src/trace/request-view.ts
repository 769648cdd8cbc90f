// What a model was asked, as the mock model's script and the trace both see it: the request view. Kept with the
// trace, whose model calls carry it (`ModelCall.request`); `src/model` builds it.

/** One message a mock model was given, reduced to its text. */
export interface MockModelMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  /** The text of the message's parts, joined with newlines (a tool message's text is its results' JSON). */
  readonly text: string;
  /** On an assistant message: the tool calls it made. */
  readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
  /** On a tool message: the results it carries. */
  readonly toolResults?: readonly MockModelToolResult[];
}

/** A tool the agent offered the model. */
export interface MockModelTool {
  readonly name: string;
  /**
   * `function` for a tool with an input schema; otherwise the provider's type: `custom` (free-text input, such
   * as Codex's `apply_patch`), `web_search`, `web_search_20250305`, `provider` (an AI SDK provider tool), ...
   */
  readonly type: string;
  readonly description?: string;
  /** The tool's input JSON Schema, when it has one. */
  readonly inputSchema?: unknown;
}

/** A tool result already in the prompt. */
export interface MockModelToolResult {
  /** The tool-call id it answers. */
  readonly id: string;
  readonly name: string;
  /** The output as the agent sent it back (parsed JSON where it was JSON). */
  readonly output: unknown;
  /** True when the call failed or was denied. */
  readonly isError: boolean;
}

/** What a responder sees of one model call. */
export interface MockModelRequest {
  /** Every prompt message in order. */
  readonly messages: readonly MockModelMessage[];
  /** The text of every user message, in order. */
  readonly userMessages: readonly string[];
  /** The latest user message, or `null` before the first. */
  readonly lastUserMessage: string | null;
  readonly userMessageCount: number;
  /** The tools offered on this call. */
  readonly tools: readonly MockModelTool[];
  /** The tool results already in the prompt, in order. */
  readonly toolResults: readonly MockModelToolResult[];
  /**
   * The tool results that arrived since the model last spoke (after the last assistant message): empty at the
   * start of every turn, so a script keyed on it holds on the second turn too.
   *
   * @example
   * ```ts
   * mockModel(({ newToolResults }) => (newToolResults.length === 0 ? { toolCalls: [{ name: "list_tasks" }] } : "Done."));
   * ```
   */
  readonly newToolResults: readonly MockModelToolResult[];
}
