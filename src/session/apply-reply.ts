import { TooltraceError } from "../exits/errors.js";
import type { SessionLog } from "../trace/log.js";
import type { TurnRecord } from "../trace/records.js";
import type { AgentReply } from "./types.js";

/**
 * Writes an agent's reply into its turn and returns the messages the turn adds to the history: the
 * agent's own, or a user and an assistant message when it returned only text.
 */
export function applyReply<TMessage>(log: SessionLog, turn: TurnRecord, message: string, reply: AgentReply<TMessage>): TMessage[] {
  if (typeof reply === "string") {
    log.answer(turn, reply, reply === "" ? [] : [reply], undefined);
    return [{ role: "user", content: message } as TMessage, { role: "assistant", content: reply } as TMessage];
  }
  if (reply === null || typeof reply !== "object" || typeof reply.text !== "string") {
    throw new TooltraceError(`the agent returned ${String(reply)}; an agent returns the reply text or { text, messages? }.`);
  }
  const inputTokens = reply.usage?.inputTokens ?? 0;
  const outputTokens = reply.usage?.outputTokens ?? 0;
  const usage = reply.usage ? { inputTokens, outputTokens, totalTokens: reply.usage.totalTokens ?? inputTokens + outputTokens } : undefined;
  log.answer(turn, reply.text, [...(reply.assistantTexts ?? (reply.text === "" ? [] : [reply.text]))], usage);
  if (reply.messages) return [...reply.messages];
  return [{ role: "user", content: message } as TMessage, { role: "assistant", content: reply.text } as TMessage];
}
