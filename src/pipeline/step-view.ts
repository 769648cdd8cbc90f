import type { AnswerSource, Interaction, InteractionKind } from "../trace/types.js";
import type { ChainCall } from "./chain-call.js";
import type { StepContext } from "./types.js";

/** What one step sees of a chain call: the call's state, with what the step changes credited to it. */
export class StepView implements StepContext {
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
