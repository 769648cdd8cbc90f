import type * as Dns from "node:dns";
import { refuseAtEdge } from "./edge-decision.js";
import { edgeError } from "./net-guard.js";

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Every query function of `node:dns` (callback and promise forms, and each `Resolver`'s). */
const QUERIES = [
  "lookup",
  "lookupService",
  "resolve",
  "resolve4",
  "resolve6",
  "resolveAny",
  "resolveCaa",
  "resolveCname",
  "resolveMx",
  "resolveNaptr",
  "resolveNs",
  "resolvePtr",
  "resolveSoa",
  "resolveSrv",
  "resolveTlsa",
  "resolveTxt",
  "reverse",
];

/**
 * Guards DNS: a query leaves the process (to the resolver the system or the test set), so a query for a
 * name the session does not allow is refused like a connection. Lookups that connections make go through
 * here too: a connection the guard allowed asks only for a name it allowed.
 */
export function guardDns(dns: typeof Dns): void {
  const callbackStyle = (original: Method): Method =>
    function guardedQuery(this: unknown, ...args: unknown[]) {
      const refusal = refusalFor(args[0]);
      if (refusal === undefined) return original.apply(this, args);
      const callback = args.at(-1);
      const error = edgeError(refusal);
      if (typeof callback === "function") process.nextTick(() => callback(error));
      else throw error;
      return undefined;
    };
  const promiseStyle = (original: Method): Method =>
    function guardedQuery(this: unknown, ...args: unknown[]) {
      const refusal = refusalFor(args[0]);
      return refusal === undefined ? original.apply(this, args) : Promise.reject(edgeError(refusal));
    };
  patchAll(dns as unknown as Record<string, unknown>, callbackStyle);
  patchAll(dns.Resolver.prototype as unknown as Record<string, unknown>, callbackStyle);
  patchAll(dns.promises as unknown as Record<string, unknown>, promiseStyle);
  patchAll(dns.promises.Resolver.prototype as unknown as Record<string, unknown>, promiseStyle);
}

function patchAll(owner: Record<string, unknown>, wrap: (original: Method) => Method): void {
  for (const name of QUERIES) {
    const original = owner[name];
    if (typeof original === "function") owner[name] = wrap(original as Method);
  }
}

/** `reverse` and `lookupService` take an address, the others a name: either is what leaves. */
function refusalFor(name: unknown): string | undefined {
  return typeof name === "string" ? refuseAtEdge({ channel: "dns", host: name }) : undefined;
}
