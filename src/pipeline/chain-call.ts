import { TooltraceError } from "../base/errors.js";
import type { Mutable } from "../trace/records.js";
import type { SessionLog } from "../trace/session-log.js";
import { toTraceError } from "../trace/to-trace-error.js";
import type { AnswerSource, Interaction, InteractionKind } from "../trace/types.js";
import type { Step, StepContext, Terminal, TerminalProgress } from "./types.js";

/** What a chain call needs from its session. */
export interface ChainHost {
  readonly name: string;
  readonly strict: boolean;
  readonly log: SessionLog;
  /** Records a problem of the turn `turnIndex` that fails the test even if the agent recovers. */
  violation(message: string, turnIndex: number): void;
}

/** Writes a result into a record: a tool's output, a model's reply and usage, an HTTP status. */
export type ResultWriter<R extends Interaction> = (record: Mutable<R>, result: unknown) => void;

type AnyRecord = Mutable<Interaction>;

/**
 * One interaction travelling the chain, and the record it fills. Only the chain writes the record; each step
 * sees it through a {@link StepView} of its own, so what a step changes is credited to it even when it acts
 * after an await.
 */
export class ChainCall implements TerminalProgress {
  readonly originalInput: unknown;
  input: unknown;
  private rejected = false;

  readonly record: AnyRecord;
  private readonly writeResult: ResultWriter<Interaction>;

  constructor(
    private readonly host: ChainHost,
    record: AnyRecord,
    readonly name: string,
    input: unknown,
    private readonly terminal: Terminal,
    writeResult: ResultWriter<never>,
  ) {
    this.record = record;
    this.writeResult = writeResult as ResultWriter<Interaction>;
    this.originalInput = input;
    this.input = input;
  }

  get kind(): InteractionKind {
    return this.record.kind;
  }

  get strict(): boolean {
    return this.host.strict;
  }

  get live(): boolean {
    return this.terminal.live;
  }

  get sessionName(): string {
    return this.host.name;
  }

  answer<T>(value: T, source: AnswerSource): T {
    this.record.answeredBy = source;
    return value;
  }

  fail(error: unknown, source: AnswerSource): never {
    this.record.answeredBy = source;
    throw error;
  }

  reject(message: string, source: AnswerSource): never {
    this.record.answeredBy = source;
    this.rejected = true;
    this.host.violation(message, this.record.turnIndex);
    throw new TooltraceError(message);
  }

  violation(message: string): void {
    this.host.violation(message, this.record.turnIndex);
  }

  transform(result: unknown, fn: (value: unknown) => unknown, by: string): unknown {
    const note = () => (this.record.changes = [...(this.record.changes ?? []), { by, what: "output" }]);
    if (isThenable(result)) {
      return Promise.resolve(result).then((value) => {
        note();
        return fn(value);
      });
    }
    note();
    return fn(result);
  }

  step(n: number): void {
    if (this.record.kind === "model") this.record.step = n;
  }

  /** Runs `steps` around the terminal, recording the outcome: the recording is the chain's outermost layer. */
  run(steps: readonly Step[]): unknown {
    let result: unknown;
    try {
      result = this.dispatch(steps, 0, this.input, "");
    } catch (error) {
      this.settleError(error);
      throw error;
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => {
          this.settle(value);
          return value;
        },
        (error: unknown) => {
          this.settleError(error);
          throw error;
        },
      );
    }
    this.settle(result);
    return result;
  }

  /** Runs step `index` (or the terminal) with `input`, which the step named `by` passed on. */
  private dispatch(steps: readonly Step[], index: number, input: unknown, by: string): unknown {
    if (input !== this.input) this.rewrite(input, by);
    const step = steps[index];
    if (step === undefined) {
      this.record.answeredBy ??= this.terminal.source;
      return this.terminal.run(this.input, this);
    }
    return step.run(new StepView(this, step.name), (...next: unknown[]) =>
      this.dispatch(steps, index + 1, next.length === 0 ? this.input : next[0], step.name),
    );
  }

  private rewrite(input: unknown, by: string): void {
    const record = this.record;
    if (record.kind === "tool") {
      if (!("originalInput" in record)) record.originalInput = this.originalInput;
      record.input = input;
    } else if (record.kind === "model") {
      record.request = input;
    }
    record.changes = [...(record.changes ?? []), { by, what: "input" }];
    this.input = input;
  }

  private settle(value: unknown): void {
    this.record.status = "completed";
    this.writeResult(this.record, value);
    this.host.log.close(this.record);
  }

  private settleError(error: unknown): void {
    this.record.status = this.rejected ? "rejected" : "failed";
    this.record.error = toTraceError(error);
    this.host.log.close(this.record);
  }
}

/** What one step sees of a chain call: the call's state, with what the step changes credited to it. */
class StepView implements StepContext {
  constructor(
    private readonly call: ChainCall,
    private readonly stepName: string,
  ) {}

  get kind(): InteractionKind {
    return this.call.kind;
  }
  get record(): Readonly<Interaction> {
    return this.call.record;
  }
  get name(): string {
    return this.call.name;
  }
  get originalInput(): unknown {
    return this.call.originalInput;
  }
  get input(): unknown {
    return this.call.input;
  }
  get strict(): boolean {
    return this.call.strict;
  }
  get live(): boolean {
    return this.call.live;
  }
  get sessionName(): string {
    return this.call.sessionName;
  }
  answer<T>(value: T, source: AnswerSource): T {
    return this.call.answer(value, source);
  }
  fail(error: unknown, source: AnswerSource): never {
    return this.call.fail(error, source);
  }
  reject(message: string, source: AnswerSource): never {
    return this.call.reject(message, source);
  }
  violation(message: string): void {
    this.call.violation(message);
  }
  transform(result: unknown, fn: (value: unknown) => unknown): unknown {
    return this.call.transform(result, fn, this.stepName);
  }
}

/** True for promises and other thenables. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function"
  );
}
