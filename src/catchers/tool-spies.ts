import { globalSingleton } from "../base/global-state.js";
import { isThenable } from "../base/settle.js";
import type { ExecutorHandle } from "../pipeline/caught.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import type { Terminal } from "../pipeline/types.js";
import { type CallShape, inputFirst, mcpRequest } from "./call-shapes.js";
import { sendingDecided } from "./mcp-transport.js";
import { patchFunction } from "./patch-function.js";

/** One patched executor: the spy on `owner[key]`, shared by every session that registered it. */
export interface Executor extends ExecutorHandle {
  /** The sessions holding it (by their tools), with how many registrations each has. */
  readonly holders: Map<object, number>;
  /** Whether the executor returns promises: an `async` function, an AI SDK `execute`, or one seen returning a promise. */
  async: boolean;
  /**
   * Held by a strict session at some point: never restored, so a call from a closed strict session's async
   * context (a timer the agent left behind) still reaches its pipeline, which refuses the real tool. Any other
   * call runs the function untouched.
   */
  keep: boolean;
  readonly restore: () => void;
}

const REAL = { kind: "real" } as const;

/** owner object -> property name -> executor. */
const executors = globalSingleton("executors", () => new WeakMap<object, Map<string, Executor>>());

/**
 * Patches `owner[key]` in place (see `patchFunction`), so code that already holds `owner` is caught. A call made
 * inside a session's turn goes to that session's pipeline (which decides what answers it); any other call
 * runs the original function untouched. Returns the executor; `release` undoes one hold, and the last
 * restores it.
 */
export function holdExecutor(
  owner: object,
  key: string,
  label: string,
  async: boolean,
  holder: object,
  shape: CallShape = inputFirst,
  keep = false,
): Executor {
  let byKey = executors.get(owner);
  if (byKey === undefined) {
    byKey = new Map();
    executors.set(owner, byKey);
  }
  let executor = byKey.get(key);
  if (executor === undefined) executor = patch(owner, key, label, async, byKey, shape);
  if (keep) executor.keep = true;
  executor.holders.set(holder, (executor.holders.get(holder) ?? 0) + 1);
  return executor;
}

/** Releases every hold `holder` has on `executor`; the last release restores the original function (unless kept). */
export function releaseExecutor(executor: Executor, holder: object): void {
  executor.holders.delete(holder);
  if (executor.holders.size === 0 && !executor.keep) executor.restore();
}

function patch(owner: object, key: string, label: string, async: boolean, byKey: Map<string, Executor>, shape: CallShape): Executor {
  const executor: Executor = {
    label,
    holders: new Map(),
    async,
    keep: false,
    restore: () => {
      patched.restore();
      byKey.delete(key);
    },
  };
  const patched = patchFunction(
    owner,
    key,
    (target) =>
      function caught(this: unknown, ...args: unknown[]): unknown {
        const context = currentTurnContext();
        if (context === undefined || shape.catches?.(args) === false) return target().apply(this, args);
        const caughtInput = shape.input(args);
        const terminal: Terminal = {
          source: REAL,
          live: true,
          run: (input) => {
            const send = () => target().apply(this, input === caughtInput ? args : shape.withInput(args, input));
            // An MCP client's request: its transport lets the call pass, as the chain decided it.
            const result = shape === mcpRequest ? sendingDecided(send) : send();
            if (!executor.async && isThenable(result)) executor.async = true;
            return result;
          },
        };
        const call = {
          kind: "tool",
          executor,
          input: caughtInput,
          callId: shape.callId(args),
          toolName: shape.toolName?.(args),
          traced: shape.traced,
        } as const;
        if (!executor.async) return context.pipeline.tool(context, call, terminal);
        // An async executor answers with a promise whatever answers it, so a stub's `throw` is a rejection.
        let promised: PromiseLike<unknown>;
        try {
          const answer = context.pipeline.tool(context, call, terminal);
          promised = isThenable(answer) ? answer : Promise.resolve(answer);
        } catch (error) {
          promised = Promise.reject(error);
        }
        return shape.deliver ? shape.deliver(promised, { run: target(), thisArg: this, args }) : promised;
      },
  );
  byKey.set(key, executor);
  return executor;
}
