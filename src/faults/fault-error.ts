import { hasBrand, stampBrands } from "../base/copy-brands.js";
import type { FiredFault } from "./types.js";

/** The status a fault answers with, for the error faults; 200 for those that break a success. */
export function faultStatus(fired: FiredFault, overloaded = 529): number {
  const { fault } = fired;
  switch (fault.fault) {
    case "rate_limit":
      return 429;
    case "server_error":
      return fault.status ?? 500;
    case "overloaded":
      return overloaded;
    default:
      return 200;
  }
}

/** The `Retry-After` a fault sends, in seconds, if any. */
export function retryAfterOf(fired: FiredFault): number | undefined {
  return fired.fault.retryAfter ?? (fired.fault.fault === "rate_limit" ? 0 : undefined);
}

/** The headers a provider's client reads its wait from: `retry-after` (seconds) and `retry-after-ms`, if any. */
export function retryHeaders(fired: FiredFault): Record<string, string> {
  const retryAfter = retryAfterOf(fired);
  return retryAfter === undefined ? {} : { "retry-after": String(retryAfter), "retry-after-ms": String(retryAfter * 1000) };
}

/** What the trace says of a fault: `rate_limit (429, Retry-After 0 s) injected by faults[0] on model call 1`. */
export function describeFault(fired: FiredFault, on: string): string {
  const { fault } = fired;
  const details: string[] = [];
  const status = faultStatus(fired);
  if (status !== 200) details.push(String(fault.fault === "overloaded" ? "529/503" : status));
  const retryAfter = retryAfterOf(fired);
  if (retryAfter !== undefined) details.push(`Retry-After ${retryAfter} s`);
  if (fault.fault === "stream_cut") details.push(`after ${fault.afterEvents ?? 2} events`);
  if (fault.fault === "slow")
    details.push(`${fault.firstTokenMs ?? 0} ms to first token, ${fault.tokensPerSecond ?? "unlimited"} tokens/s`);
  const shown = details.length > 0 ? ` (${details.join(", ")})` : "";
  return `${fault.fault}${shown} injected by ${fired.where} on ${on} ${fired.call}`;
}

/**
 * The error a call answered by a fault fails with: the trace records it, and the catcher that sees it gives
 * the client the fault in its own shape (the provider's error, a broken body, a dropped connection).
 */
export class InjectedFault extends Error {
  // A fault one copy of tooltrace injected may reach a model of another copy (see copy-brands.ts).
  static readonly brand: string = "tooltrace.InjectedFault";
  /** True for this class's instances, from either copy of tooltrace (see `brand`). */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` names, a subclass too.
    return hasBrand(this, value);
  }
  override readonly name = "InjectedFault";
  constructor(
    readonly fired: FiredFault,
    on: string,
    /** `stream_cut` and `malformed`: the answer the fault cuts, a mock model's reply (the client gets part of it). */
    readonly answer?: unknown,
  ) {
    super(describeFault(fired, on));
    stampBrands(this, new.target);
  }
}

/** Finds an injected fault in what a chain threw. */
export function injectedFaultOf(error: unknown): InjectedFault | undefined {
  return error instanceof InjectedFault ? error : undefined;
}
