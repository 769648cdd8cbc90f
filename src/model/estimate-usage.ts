import type { MockModelRequest } from "./types.js";

/** About one token per four characters, at least one. */
export function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}

/**
 * The characters of a prompt that count toward the estimate: message text (a tool message's text is its
 * results' JSON, so results count once) and the tools' names, descriptions and schemas.
 */
export function promptCharacters(request: MockModelRequest): number {
  let characters = 0;
  for (const message of request.messages) characters += message.text.length;
  for (const tool of request.tools) characters += tool.name.length + (tool.description?.length ?? 0) + jsonLength(tool.inputSchema);
  return characters;
}

function jsonLength(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === "string") return value.length;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
