import { TooltraceError } from "../exits/errors.js";
import type { ToolCall, Turn } from "../trace/types.js";
import type { MaybePromise, Middleware, MiddlewareContext } from "./types.js";

/** What a turn's middleware needs from its session. */
export interface MiddlewareHost {
  readonly name: string;
  /** Records a problem of turn `turnIndex` that fails the test even if the agent recovers. */
  violation(message: string, turnIndex: number): void;
  /** Ends turn `turnIndex` with `error`, if it is still running. */
  abortTurn(turnIndex: number, error: Error): void;
  /** One prompt to the session's model, traced in turn `turnIndex`; resolves to the reply's text. */
  callLLM(turnIndex: number, prompt: string): Promise<string>;
}

/** Thrown by `ctx.abort(reason)`: the turn ends with it; not a middleware's fault. */
export class MiddlewareAbort extends TooltraceError {
  /** What `instanceof` reads in an abort another copy of tooltrace's classes made (its ES and CommonJS builds). */
  static override readonly brand: string = "tooltrace.MiddlewareAbort";
  override readonly name = "MiddlewareAbort";
}

/** The middleware of one turn: their shared `data`, the `afterEval` results, and each phase run in order. */
export class TurnMiddleware {
  readonly data: Record<string, unknown> = {};
  readonly results: Record<string, unknown> = {};

  constructor(
    private readonly host: MiddlewareHost,
    private readonly turnIndex: number,
    private readonly list: readonly Middleware[],
  ) {}

  /** Runs every `beforeEval` in order; resolves to the message the agent gets. */
  async before(message: string): Promise<string> {
    let current = message;
    for (const middleware of this.list) {
      if (middleware.beforeEval === undefined) continue;
      const out = await this.guard(middleware, "beforeEval", () =>
        middleware.beforeEval?.({ message: current, ctx: this.context(middleware) }),
      );
      if (out === undefined) continue;
      if (typeof out !== "string")
        throw this.failure(
          middleware,
          "beforeEval",
          new TypeError(`beforeEval must return the new message as a string, or nothing; got ${typeof out}`),
        );
      current = out;
    }
    return current;
  }

  /** Runs every `afterEval` in order, keeping what each returns under its name. */
  async after(run: { message: string; answer: string; toolCalls: readonly ToolCall[]; turn: Turn }): Promise<void> {
    for (const middleware of this.list) {
      if (middleware.afterEval === undefined) continue;
      const out = await this.guard(middleware, "afterEval", () => middleware.afterEval?.({ ...run, ctx: this.context(middleware) }));
      if (out !== undefined) this.results[middleware.name] = out;
    }
  }

  /** What `middleware` sees of this turn in each of its phases. */
  context(middleware: Middleware): MiddlewareContext {
    return {
      sessionName: this.host.name,
      turnIndex: this.turnIndex,
      data: this.data,
      results: this.results,
      abort: (reason: string): never => {
        const error = new MiddlewareAbort(`turn ${this.turnIndex} aborted by middleware "${middleware.name}": ${reason}`);
        this.host.abortTurn(this.turnIndex, error);
        throw error;
      },
      callLLM: (prompt: string) => this.host.callLLM(this.turnIndex, prompt),
    };
  }

  private async guard<T>(middleware: Middleware, phase: string, fn: () => MaybePromise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.failure(middleware, phase, error);
    }
  }

  /** What a phase threw, as the turn's failure: an abort stays one; anything else fails the test, naming the middleware. */
  failure(middleware: Middleware, phase: string, error: unknown): Error {
    if (error instanceof MiddlewareAbort) return error;
    const message = `middleware "${middleware.name}" threw in ${phase}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    this.host.violation(message, this.turnIndex);
    const failure = new TooltraceError(message);
    this.host.abortTurn(this.turnIndex, failure);
    return failure;
  }
}
