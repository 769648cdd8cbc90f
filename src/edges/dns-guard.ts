import type * as Dns from "node:dns";
import { createRequire } from "node:module";
import { refuseAtEdge } from "./edge-decision.js";
import { edgeError } from "./edge-error.js";

type Method = (this: unknown, ...args: unknown[]) => unknown;

interface CaresBinding {
  getaddrinfo?: Method;
  getnameinfo?: Method;
  ChannelWrap?: { prototype: Record<string, unknown> };
}

/** The queries of a resolver's channel (`dns.resolve*`, `Resolver`, `reverse`): the name or address comes first. */
const CHANNEL_QUERIES = [
  "queryAny",
  "queryA",
  "queryAaaa",
  "queryCaa",
  "queryCname",
  "queryMx",
  "queryNs",
  "queryTlsa",
  "queryTxt",
  "querySrv",
  "queryPtr",
  "queryNaptr",
  "querySoa",
  "getHostByAddr",
];

/**
 * Guards DNS below `node:dns`, at Node's c-ares binding that every query reaches (`lookup` through
 * `getaddrinfo`, so every connection to a name; `lookupService`; each resolver's channel), so the module never
 * has to load for it and a function taken from it before still meets the guard. A query leaves the process
 * (to the resolver the system or the test set), so one for a name the session (or the hermetic run) does not
 * allow is refused like a connection: the query fails with the refusal, a tick later, as a failed lookup does. A resolver whose servers are all on loopback keeps the query on the machine.
 * Where the binding is closed (the permission model), `node:dns`'s functions are guarded instead.
 */
export function guardDns(): void {
  let cares: CaresBinding | undefined;
  try {
    cares = (process as unknown as { binding(name: string): CaresBinding }).binding("cares_wrap");
  } catch {
    cares = undefined;
  }
  const lookup = cares?.getaddrinfo;
  const lookupService = cares?.getnameinfo;
  if (cares === undefined || typeof lookup !== "function" || typeof lookupService !== "function") {
    guardDnsModule(createRequire(import.meta.url)("node:dns") as typeof Dns);
    return;
  }
  cares.getaddrinfo = function guardedGetaddrinfo(this: unknown, ...args: unknown[]) {
    return refused(args[0], refusalOf(args[1], undefined)) ? 0 : lookup.apply(this, args);
  };
  cares.getnameinfo = function guardedGetnameinfo(this: unknown, ...args: unknown[]) {
    return refused(args[0], refusalOf(args[1], undefined, true)) ? 0 : lookupService.apply(this, args);
  };
  const channel = cares.ChannelWrap?.prototype;
  for (const name of CHANNEL_QUERIES) {
    const query = channel?.[name];
    if (channel === undefined || typeof query !== "function") continue;
    channel[name] = function guardedQuery(this: { getServers?(): [string, number][] }, ...args: unknown[]) {
      return refused(args[0], refusalOf(args[1], this)) ? 0 : (query as Method).apply(this, args);
    };
  }
}

/** A query request of Node's: the callback of `dns`'s callback API, or the promise's `reject`. */
interface QueryRequest {
  callback?: (error: Error) => void;
  reject?: (error: Error) => void;
}

/**
 * Fails a refused query as a failed lookup does, a tick later (a caller like `net.Socket` or MSW's socket
 * expects its callback, never a throw): returns false when there is nothing to refuse.
 */
function refused(request: unknown, refusal: Error | undefined): boolean {
  if (refusal === undefined) return false;
  const query = (request ?? {}) as QueryRequest;
  if (typeof query.callback !== "function" && typeof query.reject !== "function") throw refusal;
  process.nextTick(() => (typeof query.callback === "function" ? query.callback(refusal) : query.reject?.(refusal)));
  return true;
}

/** The module's query functions (callback and promise forms, and each `Resolver`'s), for where the binding is closed. */
function guardDnsModule(dns: typeof Dns): void {
  const names = [
    "lookup",
    "lookupService",
    "resolve",
    "resolve4",
    "resolve6",
    "resolveAny",
    "resolveCname",
    "resolveMx",
    "resolveNs",
    "resolvePtr",
    "resolveSrv",
    "resolveTxt",
    "reverse",
  ];
  const wrap = (owner: Record<string, unknown>, promises: boolean) => {
    for (const name of names) {
      const original = owner[name];
      if (typeof original !== "function") continue;
      owner[name] = function guardedQuery(this: unknown, ...args: unknown[]) {
        const refusal = refusalOf(args[0], undefined);
        if (refusal === undefined) return (original as Method).apply(this, args);
        if (promises) return Promise.reject(refusal);
        const callback = args.at(-1);
        if (typeof callback !== "function") throw refusal;
        process.nextTick(() => (callback as (error: Error) => void)(refusal));
        return undefined;
      };
    }
  };
  wrap(dns as unknown as Record<string, unknown>, false);
  wrap(dns.Resolver.prototype as unknown as Record<string, unknown>, false);
  wrap(dns.promises as unknown as Record<string, unknown>, true);
  wrap(dns.promises.Resolver.prototype as unknown as Record<string, unknown>, true);
}

/** The error refusing a query for `name`, if it is refused. */
function refusalOf(name: unknown, channel: { getServers?(): [string, number][] } | undefined, reverse = false): Error | undefined {
  if (typeof name !== "string") return undefined;
  const servers = channel?.getServers?.();
  const refusal = refuseAtEdge({
    channel: "dns",
    host: name,
    ...(servers !== undefined ? { servers } : {}),
    ...(reverse ? { reverse } : {}),
  });
  return refusal === undefined ? undefined : edgeError(refusal);
}
