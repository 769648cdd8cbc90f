import { usageError } from "../exits/errors.js";
import { createResponder } from "../model/responder.js";
import type { MockModelInput, MockModelMessage, MockModelRequest } from "../model/types.js";
import type { SendOptions, Session } from "../session/types.js";
import type { Turn } from "../trace/types.js";

/** What the simulated user sees before each message: the conversation so far. */
export interface SimulatedUserView {
  /** The turns so far, in order. */
  readonly turns: readonly Turn[];
  /** The agent's last reply, or `undefined` before the first turn. */
  readonly lastReply: string | undefined;
  /** How many messages the user has sent. */
  readonly sent: number;
}

/** A model that plays the user: a description of who they are and what they want, and the model that plays them. */
export interface SimulatedPersona {
  /** Who the user is and what they want, as the persona model's system prompt. */
  readonly description: string;
  /**
   * The model that plays the user: anything `mockModel()` accepts (a responder sees the agent's replies as user
   * messages and the description as the system message), or an AI SDK language model (called with
   * `generateText`; it needs the `ai` package). Its calls are not part of the agent's trace.
   */
  readonly model: MockModelInput | { readonly specificationVersion: string };
  /** The user's first message. Default: the persona model writes it too. */
  readonly opening?: string;
}

/** Options of {@link simulateUser}: one of `turns`, `respond` or `persona`. */
export interface SimulateUserOptions {
  /** The user's messages, in order: the conversation ends after the last one. */
  readonly turns?: readonly string[];
  /** The user's next message from what they see; `undefined` (or `null`) ends the conversation. */
  readonly respond?: (view: SimulatedUserView) => string | null | undefined | Promise<string | null | undefined>;
  /** A model that plays the user. */
  readonly persona?: SimulatedPersona;
  /** Ends the conversation when it returns true for the turn just finished (the goal was reached). */
  readonly until?: (turn: Turn, view: SimulatedUserView) => boolean | Promise<boolean>;
  /** The most messages the user sends. Default 10. */
  readonly maxTurns?: number;
  /** Passed to every `session.send`. */
  readonly send?: SendOptions;
}

/** How the simulated conversation went. */
export interface SimulatedConversation {
  readonly turns: readonly Turn[];
  /** Why it ended: the script or the user ran out, `until` said so, or `maxTurns` was reached. */
  readonly endedBy: "user" | "until" | "maxTurns";
}

/**
 * Drives a conversation with a simulated user: scripted messages, a function of what the user sees, or a
 * persona played by a model. Every turn goes through `session.send`, so each is traced and the session's
 * matchers and snapshots cover the whole conversation.
 *
 * @example
 * ```ts
 * const { turns } = await simulateUser(session, {
 *   persona: { description: "A traveller who wants the cheapest flight to Paris and says yes to it.", model: travellerModel },
 *   until: (turn) => turn.toolCalls.some((call) => call.tool === "book_flight"),
 *   maxTurns: 4,
 * });
 * expect(session).toHaveToolOrder(["search_flights", "book_flight"]);
 * ```
 */
export async function simulateUser(session: Session, options: SimulateUserOptions): Promise<SimulatedConversation> {
  const next = nextMessage(options);
  const maxTurns = options.maxTurns ?? 10;
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw usageError(`simulateUser: \`maxTurns\` is a positive integer, got ${String(maxTurns)}.`);
  const turns: Turn[] = [];
  const view = (): SimulatedUserView => ({ turns: [...turns], lastReply: turns.at(-1)?.text, sent: turns.length });
  while (turns.length < maxTurns) {
    const message = await next(view());
    if (message === undefined || message === null) return { turns, endedBy: "user" };
    const turn = await session.send(message, options.send);
    turns.push(turn);
    if (options.until && (await options.until(turn, view()))) return { turns, endedBy: "until" };
  }
  return { turns, endedBy: "maxTurns" };
}

type NextMessage = (view: SimulatedUserView) => Promise<string | null | undefined>;

function nextMessage(options: SimulateUserOptions): NextMessage {
  const given = [options.turns, options.respond, options.persona].filter((option) => option !== undefined).length;
  if (given !== 1) throw usageError("simulateUser: give one of `turns` (the messages), `respond(view)` or `persona`.");
  if (options.turns) {
    const script = [...options.turns];
    if (script.some((message) => typeof message !== "string")) throw usageError("simulateUser: `turns` are strings.");
    return async (view) => script[view.sent];
  }
  if (options.respond) {
    const respond = options.respond;
    return async (view) => respond(view);
  }
  return personaMessages(options.persona as SimulatedPersona);
}

function personaMessages(persona: SimulatedPersona): NextMessage {
  if (typeof persona.description !== "string" || persona.description === "")
    throw usageError("simulateUser: `persona.description` says who the user is and what they want.");
  const model = persona.model;
  const languageModel = model !== null && typeof model === "object" && "specificationVersion" in model;
  const responder = languageModel ? undefined : createResponder(model as MockModelInput);
  return async (view) => {
    if (view.sent === 0 && persona.opening !== undefined) return persona.opening;
    // The persona model sees the conversation from the user's side: the agent's replies are its user messages.
    const messages: MockModelMessage[] = [
      { role: "system", text: persona.description },
      ...view.turns.flatMap((turn): MockModelMessage[] => [
        { role: "assistant", text: turn.userMessage },
        { role: "user", text: turn.text },
      ]),
    ];
    if (responder) {
      const users = messages.filter((message) => message.role === "user").map((message) => message.text);
      const request: MockModelRequest = {
        messages,
        userMessages: users,
        lastUserMessage: users.at(-1) ?? null,
        userMessageCount: users.length,
        tools: [],
        toolResults: [],
        newToolResults: [],
      };
      const reply = await responder.respond(request);
      return reply.text === "" ? undefined : reply.text;
    }
    const { generateText } = (await import("ai")) as { generateText(options: Record<string, unknown>): Promise<{ text: string }> };
    const { text } = await generateText({
      model,
      system: persona.description,
      ...(messages.length > 1
        ? { messages: messages.slice(1).map((message) => ({ role: message.role, content: message.text })) }
        : { prompt: "Write your first message to the assistant." }),
    });
    return text === "" ? undefined : text;
  };
}
