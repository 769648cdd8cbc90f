/** What one key's slots saw: for the run's summary. */
export interface SlotStats {
  /** The most held at once. */
  peak: number;
  /** Every grant. */
  granted: number;
  /** Grants that had to wait for a slot, and how long they waited in all (ms). */
  queued: number;
  queuedMs: number;
}

interface Waiter {
  readonly since: number;
  readonly grant: () => void;
}

interface KeyState {
  held: number;
  readonly waiting: Waiter[];
  readonly stats: SlotStats;
}

/**
 * A counting semaphore per key, first come first served: at most `max` holders of a key at once. A release is
 * handed straight to the longest waiter, so a slot is never free while someone waits for it.
 */
export class KeyedSlots {
  private readonly keys = new Map<string, KeyState>();

  /** Resolves once a slot of `key` is held (`max` at most at once); call the returned function to give it back, once. */
  acquire(key: string, max: number): Promise<() => void> {
    const state = this.stateOf(key);
    return new Promise((resolve) => {
      const grant = () => resolve(this.releaser(state));
      if (state.held < max) {
        this.take(state);
        grant();
        return;
      }
      state.waiting.push({ since: performance.now(), grant });
    });
  }

  /** Each key's counts so far. */
  stats(): ReadonlyMap<string, Readonly<SlotStats>> {
    return new Map([...this.keys].map(([key, state]) => [key, { ...state.stats }]));
  }

  /** Starts the counts again (a watch-mode rerun); what is held stays held, and is the new peak so far. */
  resetStats(): void {
    for (const state of this.keys.values()) Object.assign(state.stats, { peak: state.held, granted: 0, queued: 0, queuedMs: 0 });
  }

  private releaser(state: KeyState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = state.waiting.shift();
      if (next === undefined) {
        state.held -= 1;
        return;
      }
      // The slot passes straight on: `held` stays as it was.
      state.stats.granted += 1;
      state.stats.queued += 1;
      state.stats.queuedMs += performance.now() - next.since;
      next.grant();
    };
  }

  private take(state: KeyState): void {
    state.held += 1;
    state.stats.granted += 1;
    state.stats.peak = Math.max(state.stats.peak, state.held);
  }

  private stateOf(key: string): KeyState {
    let state = this.keys.get(key);
    if (state === undefined) {
      state = { held: 0, waiting: [], stats: { peak: 0, granted: 0, queued: 0, queuedMs: 0 } };
      this.keys.set(key, state);
    }
    return state;
  }
}
