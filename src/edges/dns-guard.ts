import type * as Dns from "node:dns";
import { refuseAtEdge } from "./edge-decision.js";
import { edgeError } from "./edge-error.js";

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
  // A Resolver's own servers count (the test may point one at its own DNS server); the module's are the system's.
  const own = (resolver: unknown) => resolver instanceof dns.Resolver || resolver instanceof dns.promises.Resolver;
  const callbackStyle = (original: Method): Method =>
    function guardedQuery(this: unknown, ...args: unknown[]) {
      const refusal = refusalFor(args[0], own(this) ? this : undefined);
      if (refusal === undefined) return original.apply(this, args);
      const callback = args.at(-1);
      const error = edgeError(refusal);
      if (typeof callback === "function") process.nextTick(() => callback(error));
      else throw error;
      return undefined;
    };
  const promiseStyle = (original: Method): Method =>
    function guardedQuery(this: unknown, ...args: unknown[]) {
      const refusal = refusalFor(args[0], own(this) ? this : undefined);
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

/**
 * `reverse` and `lookupService` take an address, the others a name: either is what leaves. A `Resolver` the
 * test pointed at servers of its own on loopback keeps the query on the machine (the hermetic run allows it).
 */
function refusalFor(name: unknown, resolver: unknown): string | undefined {
  if (typeof name !== "string") return undefined;
  const servers = resolver === undefined ? undefined : (resolver as { getServers(): string[] }).getServers();
  return refuseAtEdge({ channel: "dns", host: name, ...(servers !== undefined ? { servers } : {}) });
}
