import { spyOn } from "tinyspy";
import type { ExecutorHandle, InteractionHost } from "../pipeline/caught.js";
import { isThenable } from "../pipeline/chain-call.js";
import type { Terminal } from "../pipeline/types.js";
import { globalSingleton } from "../base/global-state.js";
import { inputFirst, type CallShape } from "./call-shapes.js";
import { currentTurnContext } from "./turn-context.js";

type AnyFunction = (...args: unknown[]) => unknown;

/** One patched executor: the spy on `owner[key]`, shared by every session that registered it. */
export interface Executor extends ExecutorHandle {
  /** The sessions holding it, with how many registrations each has. */
  readonly holders: Map<InteractionHost, number>;
  /** Whether the executor returns promises: an `async` function, an AI SDK `execute`, or one seen returning a promise. */
  async: boolean;
  readonly restore: () => void;
}

const REAL = { kind: "real" } as const;

/** owner object -> property name -> executor. */
const executors = globalSingleton("executors", () => new WeakMap<object, Map<string, Executor>>());

/**
 * Patches `owner[key]` in place with a tinyspy spy, so code that already holds `owner` is caught. A call made
 * inside a session's turn goes to that session (which decides what answers it); any other call runs the
 * original function untouched. Returns the executor; `release` undoes one hold, and the last restores it.
 */
export function holdExecutor(
  owner: object,
  key: string,
  label: string,
  async: boolean,
  host: InteractionHost,
  shape: CallShape = inputFirst,
): Executor {
  let byKey = executors.get(owner);
  if (byKey === undefined) {
    byKey = new Map();
    executors.set(owner, byKey);
  }
  let executor = byKey.get(key);
  if (executor === undefined) executor = patch(owner, key, label, async, byKey, shape);
  executor.holders.set(host, (executor.holders.get(host) ?? 0) + 1);
  return executor;
}

/** Releases every hold `host` has on `executor`; the last release restores the original function. */
export function releaseExecutor(executor: Executor, host: InteractionHost): void {
  executor.holders.delete(host);
  if (executor.holders.size === 0) executor.restore();
}

function patch(owner: object, key: string, label: string, async: boolean, byKey: Map<string, Executor>, shape: CallShape): Executor {
  const descriptor = Object.getOwnPropertyDescriptor(owner, key);
  if (descriptor !== undefined && !descriptor.configurable && !descriptor.writable) {
    throw new TypeError(
      `[tooltrace] cannot patch the executor of tool "${label}": the property \`${key}\` is read-only (is the tools object frozen?). Pass tools whose executors can be replaced.`,
    );
  }
  const original = (owner as Record<string, AnyFunction>)[key] as AnyFunction;
  const executor: Executor = {
    label,
    holders: new Map(),
    async,
    restore: () => {
      spy.restore();
      byKey.delete(key);
    },
  };
  const spy = spyOn(owner as Record<string, AnyFunction>, key, function (this: unknown, ...args: unknown[]) {
    // tinyspy keeps every call's arguments; the trace already has them, so keep its list short.
    if (spy.callCount >= 1024) spy.reset();
    const context = currentTurnContext();
    if (context === undefined) return original.apply(this, args);
    const terminal: Terminal = {
      source: REAL,
      live: true,
      run: (input) => {
        const result = original.apply(this, input === caughtInput ? args : shape.withInput(args, input));
        if (!executor.async && isThenable(result)) executor.async = true;
        return result;
      },
    };
    const caughtInput = shape.input(args);
    const caught = {
      kind: "tool",
      executor,
      input: caughtInput,
      callId: shape.callId(args),
      toolName: shape.toolName?.(args),
      traced: shape.traced,
    } as const;
    if (!executor.async) return context.host.handle(context, caught, terminal);
    // An async executor answers with a promise whatever answers it, so a stub's `throw` is a rejection.
    let answer: unknown;
    try {
      const result = context.host.handle(context, caught, terminal);
      answer = isThenable(result) ? result : Promise.resolve(result);
    } catch (error) {
      answer = Promise.reject(error);
    }
    return shape.deliver ? shape.deliver(answer) : answer;
  });
  byKey.set(key, executor);
  return executor;
}
