/** A resource an MCP server served by tooltrace lists and reads: its text, or JSON (served as its text). */
export interface McpResourceDefinition {
  /** Its URI, as hosts read it (`file:///docs/refunds.md`, `db://orders/schema`). */
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  /** Default `text/plain`, or `application/json` for `json`. */
  readonly mimeType?: string;
  /** The content (or `json`). */
  readonly text?: string;
  readonly json?: unknown;
}

/** An argument of a served prompt. */
export interface McpPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** A prompt an MCP server served by tooltrace lists and gives: its messages, `{{argument}}` filled in. */
export interface McpPromptDefinition {
  readonly name: string;
  readonly description?: string;
  readonly arguments?: readonly McpPromptArgument[];
  readonly messages: readonly { readonly role: "user" | "assistant"; readonly text: string }[];
}

/** A request an MCP client sent that the server refuses, with the JSON-RPC code its client reads (prefixed once). */
export class McpRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON-RPC's invalid params and internal error; MCP's resource not found. */
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const RESOURCE_NOT_FOUND = -32002;

type Fail = (pointer: string, problem: string, fix: string) => never;
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Checks a served file's `resources`: each with a unique `uri` and a `name`, and `text` or `json`. */
export function checkResources(value: unknown, fail: Fail): readonly McpResourceDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    return fail("/resources", "`resources` must be an array.", 'write `[{ "uri": "file:///notes.md", "name": "notes", "text": "..." }]`.');
  const uris = new Set<string>();
  value.forEach((resource: unknown, index) => {
    const at = `/resources/${index}`;
    if (!isObject(resource)) fail(at, "each resource is an object.", "give it `uri`, `name` and `text` (or `json`).");
    const { uri, name, text, json } = resource as Record<string, unknown>;
    if (typeof uri !== "string" || !URL.canParse(uri))
      fail(`${at}/uri`, "each resource has a `uri` (a URI with a scheme).", 'write e.g. "file:///docs/refunds.md".');
    if (uris.has(uri as string)) fail(`${at}/uri`, `the resource ${JSON.stringify(uri)} is listed twice.`, "keep one.");
    uris.add(uri as string);
    if (typeof name !== "string" || name === "") fail(`${at}/name`, "each resource has a `name`.", 'name it, e.g. "refund-policy".');
    if ((typeof text === "string") === (json !== undefined))
      fail(at, "a resource has `text` or `json`, one of them.", "give its content as `text` (or `json`).");
  });
  return value as McpResourceDefinition[];
}

/** Checks a served file's `prompts`: unique names, messages, and placeholders that name declared arguments. */
export function checkPrompts(value: unknown, fail: Fail): readonly McpPromptDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    return fail(
      "/prompts",
      "`prompts` must be an array.",
      'write `[{ "name": "summarize", "messages": [{ "role": "user", "text": "..." }] }]`.',
    );
  const names = new Set<string>();
  value.forEach((prompt: unknown, index) => {
    const at = `/prompts/${index}`;
    if (!isObject(prompt)) fail(at, "each prompt is an object.", "give it `name` and `messages`.");
    const { name, messages } = prompt as Record<string, unknown>;
    const declared = (prompt as { arguments?: unknown }).arguments ?? [];
    if (typeof name !== "string" || !/^[A-Za-z0-9_.-]{1,128}$/.test(name))
      fail(`${at}/name`, "each prompt has a `name` of letters, digits, `_`, `.` or `-`.", 'name it, e.g. "summarize".');
    if (names.has(name as string)) fail(`${at}/name`, `the prompt "${String(name)}" is listed twice.`, "keep one.");
    names.add(name as string);
    if (!Array.isArray(declared) || declared.some((argument) => !isObject(argument) || typeof argument.name !== "string"))
      fail(
        `${at}/arguments`,
        "`arguments` is an array of `{ name, description?, required? }`.",
        'write `[{ "name": "topic", "required": true }]`.',
      );
    const argumentNames = new Set((declared as McpPromptArgument[]).map((argument) => argument.name));
    if (!Array.isArray(messages) || messages.length === 0)
      fail(`${at}/messages`, "a prompt has at least one message.", 'write `[{ "role": "user", "text": "Summarize {{topic}}." }]`.');
    (messages as unknown[]).forEach((message, at2) => {
      const where = `${at}/messages/${at2}`;
      if (!isObject(message) || (message.role !== "user" && message.role !== "assistant") || typeof message.text !== "string")
        fail(where, 'each message is `{ role: "user" | "assistant", text }`.', 'write `{ "role": "user", "text": "..." }`.');
      for (const [, placeholder] of String((message as { text: string }).text).matchAll(PLACEHOLDER))
        if (!argumentNames.has(placeholder as string))
          fail(
            `${where}/text`,
            `{{${placeholder}}} names no argument of the prompt.`,
            `declare it: "arguments": [{ "name": "${placeholder}" }].`,
          );
    });
  });
  return value as McpPromptDefinition[];
}

/** What `resources/read` answers for `uri`, or the MCP error for a URI the server does not list. */
export function readResource(resources: readonly McpResourceDefinition[], uri: string) {
  const resource = resources.find((candidate) => candidate.uri === uri);
  if (resource === undefined)
    throw new McpRequestError(
      RESOURCE_NOT_FOUND,
      `Resource not found: ${uri}. Resources: ${resources.map((entry) => entry.uri).join(", ") || "none"}.`,
    );
  const json = resource.json !== undefined;
  return {
    contents: [
      {
        uri: resource.uri,
        mimeType: resource.mimeType ?? (json ? "application/json" : "text/plain"),
        text: json ? JSON.stringify(resource.json, null, 2) : (resource.text as string),
      },
    ],
  };
}

/** What `prompts/get` answers: the prompt's messages with its arguments filled in, or the MCP error. */
export function getPrompt(prompts: readonly McpPromptDefinition[], name: string, given: Readonly<Record<string, string>> = {}) {
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (prompt === undefined)
    throw new McpRequestError(
      INVALID_PARAMS,
      `Prompt ${name} not found. Prompts: ${prompts.map((entry) => entry.name).join(", ") || "none"}.`,
    );
  const declared = prompt.arguments ?? [];
  const missing = declared.filter((argument) => argument.required === true && given[argument.name] === undefined);
  if (missing.length > 0)
    throw new McpRequestError(
      INVALID_PARAMS,
      `Invalid arguments for prompt ${name}: missing required argument ${missing.map((argument) => argument.name).join(", ")}.`,
    );
  const unknown = Object.keys(given).filter((key) => !declared.some((argument) => argument.name === key));
  if (unknown.length > 0)
    throw new McpRequestError(
      INVALID_PARAMS,
      `Invalid arguments for prompt ${name}: no argument ${unknown.join(", ")} (it takes ${declared.map((argument) => argument.name).join(", ") || "none"}).`,
    );
  return {
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    messages: prompt.messages.map((message) => ({
      role: message.role,
      content: { type: "text" as const, text: message.text.replace(PLACEHOLDER, (_, key: string) => given[key] ?? "") },
    })),
  };
}
