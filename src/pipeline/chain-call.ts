import { TooltraceError } from "../exits/errors.js";
import { rethrow, settle } from "../base/settle.js";
import type { SessionLog } from "../trace/log.js";
import type { AnswerSource, Interaction, InteractionKind } from "../trace/types.js";
import { StepView } from "./step-view.js";
import { peeking } from "./peeking.js";
import type { Step, Terminal, TerminalProgress } from "./types.js";

/** What a chain call needs around it: the log it writes, the session's mode, where its violations go. */
export interface ChainEnvironment {
  readonly name: string;
  readonly strict: boolean;
  readonly log: SessionLog;
  /** Records a problem of this call that fails the test even if the agent recovers. */
  violation(message: string, record: Interaction): void;
}

/**
 * One interaction travelling the chain (Koa-style: each step gets `next`), and the record it fills through the
 * log. Each step sees it through a {@link StepView} of its own, so what a step changes is credited to it even
 * when it acts after an await. The recording is the chain's outermost layer: the record holds what the agent
 * finally saw.
 */
export class ChainCall implements TerminalProgress {
  readonly originalInput: unknown;
  input: unknown;
  private rejected = false;

  constructor(
    private readonly environment: ChainEnvironment,
    readonly record: Interaction,
    readonly name: string,
    input: unknown,
    private readonly terminal: Terminal,
    /**
     * Writes the result into the record through the log (a tool's output, a model's reply, an HTTP status) and
     * returns what the caller gets.
     */
    private readonly finish: (value: unknown) => unknown,
    /** Told of a failure once it is recorded, before it goes on to the caller. */
    private readonly failed?: (environment: ChainEnvironment) => void,
  ) {
    this.originalInput = input;
    this.input = input;
  }

  get kind(): InteractionKind {
    return this.record.kind;
  }

  get strict(): boolean {
    return this.environment.strict;
  }

  get live(): boolean {
    return this.terminal.live;
  }

  get sessionName(): string {
    return this.environment.name;
  }

  answer<T>(value: T, source: AnswerSource): T {
    this.environment.log.answeredBy(this.record, source);
    return value;
  }

  fail(error: unknown, source: AnswerSource): never {
    this.environment.log.answeredBy(this.record, source);
    throw error;
  }

  reject(message: string, source: AnswerSource): never {
    this.environment.log.answeredBy(this.record, source);
    this.rejected = true;
    this.environment.violation(message, this.record);
    throw new TooltraceError(message);
  }

  violation(message: string): void {
    this.environment.violation(message, this.record);
  }

  transform(result: unknown, fn: (value: unknown) => unknown, by: string): unknown {
    return settle(
      () => result,
      (value) => {
        this.environment.log.changed(this.record, by, "output");
        return fn(value);
      },
      rethrow,
    );
  }

  step(n: number): void {
    if (this.record.kind === "model") this.environment.log.step(this.record, n);
  }

  /** Runs `steps` around the terminal, recording the outcome. */
  run(steps: readonly Step[]): unknown {
    return settle(
      () => this.dispatch(steps, 0, this.input, ""),
      (value) => this.finish(value),
      (error) => {
        this.environment.log.fail(this.record, error, this.rejected ? "rejected" : "failed");
        this.failed?.(this.environment);
        throw error;
      },
    );
  }

  /** Runs step `index` (or the terminal) with `input`, which the step named `by` passed on. */
  private dispatch(steps: readonly Step[], index: number, input: unknown, by: string): unknown {
    if (input !== this.input) {
      this.environment.log.rewriteInput(this.record, input, this.originalInput, by);
      this.input = input;
    }
    const step = steps[index];
    if (step === undefined) {
      this.environment.log.answeredByDefault(this.record, this.terminal.source);
      const { peek } = this.terminal;
      return peek !== undefined && peeking.has(this.record) ? peek(this.input, this) : this.terminal.run(this.input, this);
    }
    return step.run(new StepView(this, step.name), (...next: unknown[]) =>
      this.dispatch(steps, index + 1, next.length === 0 ? this.input : next[0], step.name),
    );
  }
}
