import type { TurnRecord } from "../trace/records.js";

/** How long a turn's end waits for what it settles: a response body still arriving does not hold the test. */
const SETTLE_MS = 2000;

/**
 * Work that settles when a turn ends: a request handed back to MSW whose response is still being read into
 * its record (or never came: its connection failed, and MSW reports no response then).
 */
export class TurnEnds {
  private readonly waiting = new Map<TurnRecord, (() => unknown)[]>();

  on(turn: TurnRecord, settle: () => unknown): void {
    const list = this.waiting.get(turn);
    if (list === undefined) this.waiting.set(turn, [settle]);
    else list.push(settle);
  }

  /** Called by the turn runner once the turn has ended; `undefined` when nothing waits, else the wait, bounded. */
  ended(turn: TurnRecord): Promise<void> | undefined {
    const list = this.waiting.get(turn);
    if (list === undefined) return undefined;
    this.waiting.delete(turn);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_MS);
      timer.unref();
    });
    const settled = Promise.all(
      list.map((settle) =>
        Promise.resolve()
          .then(settle)
          .catch(() => undefined),
      ),
    ).then(() => undefined);
    return Promise.race([settled, bound]).finally(() => clearTimeout(timer));
  }
}
