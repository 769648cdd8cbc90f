import type { RecordedRequest } from "./recorded-request.js";

/** How many requests' calls a server keeps for their tests to fetch. */
export const MAX_RECORDED_REQUESTS = 1_000;
/** How long a request's calls are kept once it started. */
export const RECORDED_REQUEST_LIFETIME_MS = 10 * 60_000;

/**
 * The requests a server recorded, by the id of the token they came with, until their test fetches them: at
 * most {@link MAX_RECORDED_REQUESTS}, each for {@link RECORDED_REQUEST_LIFETIME_MS}; past the bound the
 * oldest goes. A request that goes is closed, so a call it still makes is reported as late.
 */
export class RecordedStore {
  private readonly entries = new Map<string, { readonly request: RecordedRequest; readonly expiresAt: number }>();

  constructor(
    private readonly max = MAX_RECORDED_REQUESTS,
    private readonly lifetimeMs = RECORDED_REQUEST_LIFETIME_MS,
  ) {}

  add(tokenId: string, request: RecordedRequest, now: number): void {
    this.prune(now);
    const oldest = this.entries.keys().next();
    if (this.entries.size >= this.max && oldest.done !== true) this.drop(oldest.value);
    this.entries.set(tokenId, { request, expiresAt: now + this.lifetimeMs });
  }

  get(tokenId: string, now: number): RecordedRequest | undefined {
    this.prune(now);
    return this.entries.get(tokenId)?.request;
  }

  /** Removes the request without closing it (it may still stream): its calls are being served. */
  take(tokenId: string): RecordedRequest | undefined {
    const entry = this.entries.get(tokenId);
    this.entries.delete(tokenId);
    return entry?.request;
  }

  /** Removes the request; its calls were served. */
  drop(tokenId: string): void {
    this.entries.get(tokenId)?.request.close();
    this.entries.delete(tokenId);
  }

  /** Forgets every request (the server closes). */
  clear(): void {
    for (const id of [...this.entries.keys()]) this.drop(id);
  }

  /** Entries are added in time order with one lifetime, so the expired ones are the first. */
  private prune(now: number): void {
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.drop(id);
    }
  }
}
