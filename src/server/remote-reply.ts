import { excerpt } from "../exits/excerpt.js";
import { TooltraceError } from "../exits/errors.js";

/** A message of a remote agent's conversation, as `remoteAgent` sends the history by default. */
export interface RemoteMessage {
  readonly role: "user" | "assistant";
  readonly content: string;
}

/** What a remote agent's reply gives the turn: its text, and the messages the turn added, if the server says. */
export interface RemoteReply {
  readonly text: string;
  readonly messages?: readonly RemoteMessage[];
}

/**
 * The reply of an agent's route, read by its content type: JSON `{ text, messages? }`; an AI SDK UI message
 * stream (`toUIMessageStreamResponse()`, server-sent events), whose text deltas are joined; or any other
 * text (`toTextStreamResponse()`), whole.
 */
export async function readReply(response: Response): Promise<RemoteReply> {
  const type = response.headers.get("content-type") ?? "";
  const body = await response.text();
  if (type.includes("text/event-stream")) return { text: textOfEvents(body) };
  if (!type.includes("json")) return { text: body };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new TooltraceError(`the agent answered with content type ${type} and a body that is not JSON: ${excerpt(body)}`);
  }
  const reply = parsed as Partial<RemoteReply> | null;
  if (reply === null || typeof reply !== "object" || typeof reply.text !== "string") {
    throw new TooltraceError(
      `the agent answered ${excerpt(body)}, and remoteAgent reads the reply from a JSON \`{ text }\`.`,
      "answer `{ text }`, or pass remoteAgent({ reply: (response) => ... }) to read your route's own shape.",
    );
  }
  return Array.isArray(reply.messages) ? { text: reply.text, messages: reply.messages } : { text: reply.text };
}

function textOfEvents(body: string): string {
  let text = "";
  for (const line of body.split("\n")) {
    if (!line.startsWith("data:")) continue;
    try {
      const event = JSON.parse(line.slice(5)) as { type?: unknown; delta?: unknown };
      if (event.type === "text-delta" && typeof event.delta === "string") text += event.delta;
    } catch {
      // `data: [DONE]` and other lines that are not JSON carry no text.
    }
  }
  return text;
}
