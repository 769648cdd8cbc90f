/** How many unexpired token ids a server remembers; past that it refuses new tokens rather than forget one. */
export const MAX_LIVE_TOKENS = 10_000;

/**
 * The ids of the tokens a server accepted, each kept until its token expires, so a token is accepted once.
 * Full of live ids, it refuses: forgetting one early would let its token be replayed.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly max = MAX_LIVE_TOKENS) {}

  /** `admitted` the first time a token id is seen before `expiresAt`; `replayed` after; `full` when no room is left. */
  admit(id: string, expiresAt: number, now: number): "admitted" | "replayed" | "full" {
    const known = this.seen.get(id);
    if (known !== undefined && known > now) return "replayed";
    if (this.seen.size >= this.max) this.forgetExpired(now);
    if (this.seen.size >= this.max) return "full";
    this.seen.set(id, expiresAt);
    return "admitted";
  }

  private forgetExpired(now: number): void {
    for (const [id, expiresAt] of this.seen) if (expiresAt <= now) this.seen.delete(id);
  }
}
