/**
 * How a turn is stopped (its time limit, the caller's signal, a middleware's `abort`, its test's end): one
 * rejection raced against each phase, and the signal the agent gets. The `AbortController` behind the signal
 * is made only when the agent reads it or the turn is stopped: most turns never need one.
 */
export class TurnAbort {
  readonly stopped: Promise<never>;
  private reject: (reason: unknown) => void = () => undefined;
  private controller: AbortController | undefined;
  private reason: { readonly value: unknown } | undefined;

  constructor() {
    this.stopped = new Promise<never>((_, reject) => {
      this.reject = reject;
    });
    this.stopped.catch(() => undefined);
  }

  /** The signal the agent sees aborted when the turn stops. */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.reason !== undefined && !this.controller.signal.aborted) this.controller.abort(this.reason.value);
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.reason !== undefined;
  }

  abort(reason: unknown): void {
    if (this.reason !== undefined) return;
    this.reason = { value: reason };
    this.controller?.abort(reason);
    this.reject(reason);
  }

  /** `work`, or the turn's stop if that comes first. */
  guard<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.stopped]);
  }
}
