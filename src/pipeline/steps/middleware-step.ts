import { TooltraceError } from "../../exits/errors.js";
import { settle } from "../../base/settle.js";
import type { TurnMiddleware } from "../../middleware/turn-middleware.js";
import type { Middleware } from "../../middleware/types.js";
import type { Step, StepContext } from "../types.js";

/** Thrown by `fail(error)` in `onToolCall`: the call fails with `error`, as if the tool had thrown it. */
class CallFailure {
  constructor(readonly error: Error) {}
}

const PASSED_ON = Symbol("passed on");

/**
 * The chain steps of the middleware with `onToolCall`, in declaration order. Each finds its turn's middleware
 * run by the call's turn; a call without one (a late call, after its turn ended) passes through.
 */
export function middlewareSteps(list: readonly Middleware[], runOf: (turnIndex: number) => TurnMiddleware | undefined): Step[] {
  return list.flatMap((middleware) => {
    const onToolCall = middleware.onToolCall?.bind(middleware);
    if (onToolCall === undefined) return [];
    return [
      {
        name: middleware.name,
        kinds: ["tool"] as const,
        run: (ctx: StepContext, next: (input?: unknown) => unknown) => {
          const run = ctx.kind === "tool" ? runOf(ctx.record.turnIndex) : undefined;
          return run === undefined ? next() : aroundToolCall(run, middleware, onToolCall, ctx, next);
        },
      },
    ];
  });
}

/** One middleware's `onToolCall` around one tool call, Koa-style: `handler` is the rest of the chain. */
function aroundToolCall(
  turn: TurnMiddleware,
  middleware: Middleware,
  onToolCall: NonNullable<Middleware["onToolCall"]>,
  ctx: StepContext,
  next: (input?: unknown) => unknown,
): unknown {
  const source = { kind: "middleware", name: middleware.name } as const;
  let handled: { value: unknown } | undefined;
  let toolError: unknown = PASSED_ON;
  const handler = (...input: unknown[]): unknown => {
    if (handled !== undefined)
      throw new TooltraceError(`middleware "${middleware.name}" called handler twice for ${ctx.name}; call it at most once.`);
    const entry = { value: undefined as unknown };
    handled = entry;
    return settle(
      () => (input.length === 0 ? next() : next(input[0])),
      (value) => {
        entry.value = value;
        return value;
      },
      (error) => {
        toolError = error;
        throw error;
      },
    );
  };
  const answered = (value: unknown): unknown => {
    if (handled === undefined) return ctx.answer(value, source);
    // Credited to this middleware in the trace when the agent sees something else than the tool answered.
    return value === handled.value ? value : ctx.transform(value, () => value);
  };
  const failed = (error: unknown): never => {
    if (error instanceof CallFailure) return ctx.fail(error.error, source);
    if (error === toolError) throw error;
    throw turn.failure(middleware, "onToolCall", error);
  };
  return settle(
    () =>
      onToolCall({
        tool: ctx.name,
        input: ctx.input,
        callId: ctx.record.kind === "tool" ? ctx.record.id : "",
        handler,
        fail: (error) => {
          throw new CallFailure(typeof error === "string" ? new Error(error) : error);
        },
        ctx: turn.context(middleware),
      }),
    answered,
    failed,
  );
}
