import { isThenable } from "../base/settle.js";
import { parseMaybeJson } from "../model/request-view.js";
import { throughErrorFunction } from "./agents-sdk-errors.js";

/**
 * How an executor's arguments carry a call, and how its failures reach the agent: what the spy needs to
 * turn a call into an interaction and to give the answer back in the caller's shape.
 */
export interface CallShape {
  /** The tool's input among the arguments. */
  input(args: readonly unknown[]): unknown;
  /** The id the framework gave the call, if any. */
  callId(args: readonly unknown[]): string | undefined;
  /** The arguments for the real executor, with `input` in place of the original input. */
  withInput(args: readonly unknown[], input: unknown): unknown[];
  /** For an executor that serves several tools (an MCP client's `callTool`): the tool this call names. */
  toolName?(args: readonly unknown[]): string | undefined;
  /** For an executor that does more than call tools (an MCP client's `request`): whether this call is one. */
  catches?(args: readonly unknown[]): boolean;
  /**
   * What the caller sees of an answer (a value or a promise): the identity for most executors. A framework
   * that turns its tools' failures into a result the model reads (the OpenAI Agents SDK) gets a failing
   * answer the same way.
   */
  deliver?(result: unknown, original: OriginalCall): unknown;
  /** What the trace keeps of a real result that is not data (the agent an Agents SDK handoff returns). */
  traced?(result: unknown): unknown;
}

/** The executor's own function and this call's arguments, for a shape whose failures go through the framework. */
export interface OriginalCall {
  readonly run: (...args: unknown[]) => unknown;
  readonly thisArg: unknown;
  readonly args: readonly unknown[];
}

/** A plain function or an AI SDK `execute(input, { toolCallId })`. */
export const inputFirst: CallShape = {
  input: (args) => args[0],
  callId: (args) => stringAt(args[1], "toolCallId"),
  withInput: (args, input) => [input, ...args.slice(1)],
};

/** A LangChain tool's `_call(input, runManager, config)`: `config.toolCall.id` when the model's call is known. */
export const langchainCall: CallShape = {
  ...inputFirst,
  callId: (args) => stringAt((args[2] as { toolCall?: unknown } | undefined)?.toolCall, "id"),
};

/**
 * An OpenAI Agents SDK function tool's `invoke(runContext, input, details)`: the input is the model's JSON
 * text, the id is `details.toolCall.callId`. A real failure inside the tool reaches the model as the tool's
 * `errorFunction` makes it (a thrown error would end the whole run), and so does a stub's `throw`: it goes
 * through the SDK's own `invoke`, the real `execute` never running (the SDK's default text on an SDK without
 * the hook that allows it).
 */
export const agentsSdkInvoke: CallShape = {
  input: (args) => parseJson(args[1]),
  callId: (args) => stringAt((args[2] as { toolCall?: unknown } | undefined)?.toolCall, "callId"),
  withInput: (args, input) => [args[0], typeof input === "string" ? input : JSON.stringify(input), ...args.slice(2)],
  deliver: (result, original) =>
    isThenable(result)
      ? Promise.resolve(result).catch(
          (error: unknown) => throughErrorFunction(original.run, original.thisArg, original.args, error) ?? agentsSdkErrorText(error),
        )
      : result,
};

/**
 * An OpenAI Agents SDK handoff's `onInvokeHandoff(runContext, args)`: the input is the model's JSON text (often
 * empty), and the real result, the agent handed to, is traced as the SDK tells the model: `{ assistant: name }`.
 */
export const agentsSdkHandoff: CallShape = {
  input: (args) => (args[1] === "" || args[1] === undefined ? {} : parseJson(args[1])),
  callId: () => undefined,
  withInput: (args, input) => [args[0], typeof input === "string" ? input : JSON.stringify(input), ...args.slice(2)],
  traced: (agent) => ({ assistant: stringAt(agent, "name") ?? null }),
};

/** The OpenAI Agents SDK's default text for a tool that failed (`defaultToolErrorFunction`). */
function agentsSdkErrorText(error: unknown): string {
  return `An error occurred while running the tool. Please try again. Error: ${error instanceof Error ? error.toString() : String(error)}`;
}

function stringAt(value: unknown, key: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === "string" && found !== "" ? found : undefined;
}

/** The model's JSON text as a value (text that is not JSON stays text); anything else as it is. */
function parseJson(text: unknown): unknown {
  return typeof text === "string" ? parseMaybeJson(text) : text;
}

/**
 * An MCP client's `callTool({ name, arguments })`, one executor for every tool of the server. A stub's plain
 * JSON comes back as a `CallToolResult` (its text and `structuredContent`), and a failure as an `isError`
 * result, the way a tool's failure reaches an MCP client.
 */
export const mcpCallTool: CallShape = {
  input: (args) => (args[0] as { arguments?: unknown } | undefined)?.arguments ?? {},
  callId: () => undefined,
  withInput: (args, input) => [{ ...(args[0] as object), arguments: input }, ...args.slice(1)],
  toolName: (args) => stringAt(args[0], "name"),
  deliver: (result) =>
    Promise.resolve(result).then(
      (value) =>
        isCallToolResult(value)
          ? value
          : {
              content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
              ...(value !== null && typeof value === "object" && !Array.isArray(value) ? { structuredContent: value } : {}),
            },
      (error: unknown) => ({ isError: true, content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }] }),
    ),
};

/**
 * An MCP client's `request({ method, params }, schema, options)`, the layer every `tools/call` goes through
 * (`callTool`, a direct `request`, `experimental.tasks.callToolStream`): only `tools/call` is a tool call, and
 * it is answered as {@link mcpCallTool} answers. A task the real server created comes back as it is.
 */
export const mcpRequest: CallShape = {
  catches: (args) => (args[0] as { method?: unknown } | undefined)?.method === "tools/call",
  input: (args) => mcpCallTool.input([paramsOf(args)]),
  callId: () => undefined,
  withInput: (args, input) => [{ ...(args[0] as object), params: { ...(paramsOf(args) as object), arguments: input } }, ...args.slice(1)],
  toolName: (args) => stringAt(paramsOf(args), "name"),
  deliver: (result, original) =>
    Promise.resolve(result).then(
      (value) => (value !== null && typeof value === "object" && "task" in value ? value : mcpCallTool.deliver?.(value, original)),
      (error: unknown) => mcpCallTool.deliver?.(Promise.reject(error), original),
    ),
};

function paramsOf(args: readonly unknown[]): unknown {
  return (args[0] as { params?: unknown } | undefined)?.params ?? {};
}

function isCallToolResult(value: unknown): boolean {
  return value !== null && typeof value === "object" && Array.isArray((value as { content?: unknown }).content);
}
