import { toJsonValue } from "../base/json-value.js";

interface RequestViewLike {
  readonly messages: readonly unknown[];
  readonly lastUserMessage: unknown;
  readonly tools: readonly {
    readonly name: string;
    readonly type: string;
    readonly description?: string;
    readonly inputSchema?: unknown;
  }[];
}

/** A tool a session's model was offered, as the JSON form keeps it once per session. */
export interface OfferedToolJson {
  readonly type: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
}

function isRequestView(value: unknown): value is RequestViewLike {
  const view = value as Partial<RequestViewLike> | null;
  return view !== null && typeof view === "object" && Array.isArray(view.messages) && Array.isArray(view.tools);
}

/**
 * A model call's request as the JSON form keeps it: the conversation, the last user message and the offered
 * tools by name and type. What the live view derives from the conversation (`userMessages`, `toolResults`) is
 * left out, and each tool's schema is kept once per session (see {@link offeredTools}): a turn's model calls
 * repeat both, and every test's JSON crosses to the test runner's main process.
 */
export function requestJson(request: unknown, shared: SharedJson): unknown {
  if (!isRequestView(request)) return toJsonValue(request);
  return {
    messages: request.messages.map((message) => sharedCopy(shared, messageKey(message), message)),
    lastUserMessage: request.lastUserMessage,
    tools: sharedCopy(
      shared,
      `tools\u0000${request.tools.map((tool) => `${tool.name}\u0000${tool.type}\u0000${tool.description ?? ""}`).join("\u0001")}`,
      request.tools.map((tool) =>
        tool.description === undefined
          ? { name: tool.name, type: tool.type }
          : { name: tool.name, type: tool.type, description: tool.description },
      ),
    ),
  };
}

/**
 * JSON copies shared by what they say: a conversation grows call by call, and each model call's request
 * repeats it; one copy of each message (and of each list of offered tools) serves every request of a session.
 */
export type SharedJson = Map<string, unknown>;

function sharedCopy(shared: SharedJson, key: string, value: unknown): unknown {
  const found = shared.get(key);
  if (found !== undefined) return found;
  const copy = toJsonValue(value);
  shared.set(key, copy);
  return copy;
}

/** A message by its role, its text and the ids of its tool calls and results: the same message in every request. */
function messageKey(message: unknown): string {
  const { role, text, toolCalls, toolResults } = message as {
    role?: unknown;
    text?: unknown;
    toolCalls?: readonly { id?: unknown }[];
    toolResults?: readonly { id?: unknown }[];
  };
  const ids = [...(toolCalls ?? []), ...(toolResults ?? [])].map((item) => String(item.id)).join("\u0001");
  return `${String(role)}\u0000${String(text)}\u0000${ids}`;
}

/** Every tool the model calls of `turns` were offered, by name, with its description and schema (the first seen). */
export function offeredTools(
  turns: readonly { readonly modelCalls: readonly { readonly request: unknown }[] }[],
): Record<string, OfferedToolJson> {
  const tools: Record<string, OfferedToolJson> = {};
  for (const turn of turns) {
    for (const call of turn.modelCalls) {
      if (!isRequestView(call.request)) continue;
      for (const tool of call.request.tools) {
        if (Object.hasOwn(tools, tool.name)) continue;
        // A copy in any case: a framework's schema object carries hidden references (zod's `~standard` validator).
        tools[tool.name] = JSON.parse(
          JSON.stringify(toJsonValue({ type: tool.type, description: tool.description, inputSchema: tool.inputSchema })),
        ) as OfferedToolJson;
      }
    }
  }
  return tools;
}
