/** What the model must see of one tool call's result: the chain's answer, not necessarily what the agent sent. */
export interface EditedResult {
  readonly id: string;
  readonly name: string;
  readonly output: unknown;
  readonly isError: boolean;
}

/** A round the agent never saw (every call answered in the chain), put back after the client's first `at` items. */
export interface HiddenRoundEdit {
  readonly at: number;
  readonly text: string;
  readonly calls: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
  readonly results: readonly EditedResult[];
}

/**
 * The chain's changes to a client's conversation, by tool call id: the inputs the model gave (where the agent
 * was sent others), the results the chain gave (where the agent sent others), and the rounds it never saw.
 */
export interface WireEdits {
  readonly inputs: ReadonlyMap<string, unknown>;
  readonly results: ReadonlyMap<string, EditedResult>;
  readonly rounds: readonly HiddenRoundEdit[];
  /** Calls of a reply the agent got only part of: the ones it never saw, placed after the call named by the key. */
  readonly extraCalls: ReadonlyMap<string, readonly HiddenRoundEdit["calls"][number][]>;
  /** Their results, placed after the result of the call named by the key. */
  readonly extraResults: ReadonlyMap<string, readonly EditedResult[]>;
}

/** A request item, as the provider's JSON has it. */
export type Item = Record<string, unknown>;

/** How one provider's conversation takes the chain's changes: where it lives, how an item is patched, how a round is written. */
export interface ConversationEditor {
  /** The body's field holding the conversation: `messages`, Responses' `input`, or Gemini's `contents`. */
  readonly key: "messages" | "input" | "contents";
  /** The item with the edits put in; several items where calls or results the agent never saw follow it. */
  patch(item: Item, edits: WireEdits): Item | Item[];
  round(round: HiddenRoundEdit): Item[];
}

export const resultText = (output: unknown) => (typeof output === "string" ? output : JSON.stringify(output ?? null));
export const argumentsOf = (input: unknown) => (typeof input === "string" ? input : JSON.stringify(input ?? {}));
export const isItem = (value: unknown): value is Item => value !== null && typeof value === "object" && !Array.isArray(value);

/** Whether there is anything to put back. */
export function hasEdits(edits: WireEdits): boolean {
  return edits.inputs.size > 0 || edits.results.size > 0 || edits.rounds.length > 0 || edits.extraCalls.size > 0;
}

/** The conversation's length in the provider's own items: where a round hidden now is put back later. */
export function conversationLength(editor: ConversationEditor, body: Readonly<Record<string, unknown>>): number {
  const list = body[editor.key];
  return Array.isArray(list) ? list.length : typeof list === "string" ? 1 : 0;
}

/**
 * The client's request with the chain's changes put back, in the provider's own format: only the tool-call
 * inputs, tool results and rounds the edits name change; every other field, message, block and item (system
 * prompts, cache control, thinking blocks, reasoning items, unknown fields) is kept as the client sent it.
 */
export function applyEdits(editor: ConversationEditor, body: Readonly<Record<string, unknown>>, edits: WireEdits): Record<string, unknown> {
  const given = body[editor.key];
  const list: unknown[] =
    typeof given === "string" ? [{ type: "message", role: "user", content: given }] : Array.isArray(given) ? given : [];
  const rounds = [...edits.rounds].sort((a, b) => a.at - b.at);
  const out: unknown[] = [];
  list.forEach((item, index) => {
    for (const round of rounds) if (round.at === index) out.push(...editor.round(round));
    const patched = isItem(item) ? editor.patch(item, edits) : item;
    if (Array.isArray(patched)) out.push(...patched);
    else out.push(patched);
  });
  for (const round of rounds) if (round.at >= list.length) out.push(...editor.round(round));
  return { ...body, [editor.key]: out };
}
