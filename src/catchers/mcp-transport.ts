import { globalSingleton } from "../base/global-state.js";
import type { ExecutorHandle } from "../pipeline/caught.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import type { Terminal } from "../pipeline/types.js";
import { mcpCallTool } from "./call-shapes.js";
import { type Patch, patchFunction } from "./patch-function.js";

interface JsonRpcMessage {
  readonly jsonrpc?: string;
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: { readonly name?: unknown; readonly arguments?: unknown };
  readonly result?: unknown;
  readonly error?: { readonly message?: string };
}

interface Transport {
  send(message: JsonRpcMessage, options?: unknown): Promise<void>;
  onmessage?: (message: JsonRpcMessage, extra?: unknown) => void;
}

interface Held {
  readonly executor: ExecutorHandle;
  holds: number;
  readonly patches: Patch[];
  readonly pending: Map<string | number, { resolve(result: unknown): void; reject(error: Error): void }>;
}

const state = globalSingleton("mcpTransports", () => ({ held: new WeakMap<object, Held>(), decided: 0 }));

/**
 * Runs `send` as the request-level catch does once the chain decided a call goes to the real server: the
 * transport lets that `tools/call` pass, since it is already in the trace.
 */
export function sendingDecided<T>(send: () => T): T {
  state.decided += 1;
  try {
    return send();
  } finally {
    state.decided -= 1;
  }
}

/**
 * Catches `tools/call` beneath an MCP client, at its transport's `send`, where every request leaves whoever
 * wrote it (`client.transport.send(...)`, the prototype's `request` called on the client): one sent in a
 * session's turn that did not come through the client's caught `request` goes through the session's chain
 * as a call of `executor` (answered by a rule, refused by strict mode, or sent to the server, whose answer
 * is taken from the transport). Returns the release; the last release restores the transport.
 */
export function holdMcpTransport(client: { readonly transport?: unknown }, executor: ExecutorHandle): (() => void) | undefined {
  const transport = client.transport as Transport | undefined;
  if (transport === undefined || transport === null || typeof transport.send !== "function") return undefined;
  let held = state.held.get(transport);
  if (held === undefined) {
    const made: Held = { executor, holds: 0, patches: [], pending: new Map() };
    made.patches.push(patchFunction(transport, "send", (original) => caughtSend(transport, made, original)));
    if (typeof transport.onmessage === "function")
      made.patches.push(patchFunction(transport, "onmessage", (original) => answered(made, original)));
    state.held.set(transport, made);
    held = made;
  }
  held.holds += 1;
  const own = held;
  return () => {
    own.holds -= 1;
    if (own.holds > 0) return;
    for (const patch of own.patches.reverse()) patch.restore();
    state.held.delete(transport);
  };
}

function caughtSend(transport: Transport, held: Held, original: () => (...args: unknown[]) => unknown) {
  return function send(this: unknown, ...args: unknown[]): unknown {
    const message = args[0] as JsonRpcMessage | undefined;
    const context = currentTurnContext();
    if (context === undefined || state.decided > 0 || message?.method !== "tools/call" || message.id === undefined)
      return original().apply(this, args);
    const id = message.id;
    const params = message.params ?? {};
    const caughtInput = params.arguments ?? {};
    const terminal: Terminal = {
      source: { kind: "real" },
      live: true,
      run: (input) =>
        new Promise((resolve, reject) => {
          held.pending.set(id, { resolve, reject });
          const sent = input === caughtInput ? message : { ...message, params: { ...params, arguments: input } };
          Promise.resolve(original().apply(this, [sent, ...args.slice(1)])).catch((error: unknown) => {
            held.pending.delete(id);
            reject(error);
          });
        }),
    };
    const call = {
      kind: "tool",
      executor: held.executor,
      input: caughtInput,
      callId: undefined,
      toolName: typeof params.name === "string" ? params.name : undefined,
    } as const;
    let promised: Promise<unknown>;
    try {
      promised = Promise.resolve(context.pipeline.tool(context, call, terminal));
    } catch (error) {
      promised = Promise.reject(error);
    }
    // The client's own machinery gets the answer as the server's response to its message.
    void Promise.resolve(mcpCallTool.deliver?.(promised, { run: () => undefined, thisArg: undefined, args: [] })).then((result) =>
      transport.onmessage?.({ jsonrpc: "2.0", id, result }),
    );
    return Promise.resolve();
  };
}

/** The transport's `onmessage`: a response to a call the chain sent on is the chain's, not the client's. */
function answered(held: Held, original: () => (...args: unknown[]) => unknown) {
  return function onmessage(this: unknown, ...args: unknown[]): unknown {
    const message = args[0] as JsonRpcMessage | undefined;
    const waiting = message?.id === undefined || message.method !== undefined ? undefined : held.pending.get(message.id);
    if (waiting === undefined || message === undefined || message.id === undefined) return original().apply(this, args);
    held.pending.delete(message.id);
    if (message.error !== undefined) waiting.reject(new Error(message.error.message ?? "the MCP server answered with an error"));
    else waiting.resolve(message.result);
    return undefined;
  };
}
