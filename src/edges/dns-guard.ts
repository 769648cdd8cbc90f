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
 * allow is refused like a connection: the call throws the refusal, as Node's own functions throw for a
 * query they cannot start. A resolver whose servers are all on loopback keeps the query on the machine.
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
    refuse(args[1], undefined);
    return lookup.apply(this, args);
  };
  cares.getnameinfo = function guardedGetnameinfo(this: unknown, ...args: unknown[]) {
    refuse(args[1], undefined);
    return lookupService.apply(this, args);
  };
  const channel = cares.ChannelWrap?.prototype;
  for (const name of CHANNEL_QUERIES) {
    const query = channel?.[name];
    if (channel === undefined || typeof query !== "function") continue;
    channel[name] = function guardedQuery(this: { getServers?(): [string, number][] }, ...args: unknown[]) {
      refuse(args[1], this);
      return (query as Method).apply(this, args);
    };
  }
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
        try {
          refuse(args[0], undefined);
        } catch (error) {
          if (promises) return Promise.reject(error);
          throw error;
        }
        return (original as Method).apply(this, args);
      };
    }
  };
  wrap(dns as unknown as Record<string, unknown>, false);
  wrap(dns.Resolver.prototype as unknown as Record<string, unknown>, false);
  wrap(dns.promises as unknown as Record<string, unknown>, true);
  wrap(dns.promises.Resolver.prototype as unknown as Record<string, unknown>, true);
}

/** Throws the refusal of a query for `name`, if any. */
function refuse(name: unknown, channel: { getServers?(): [string, number][] } | undefined): void {
  if (typeof name !== "string") return;
  const servers = channel?.getServers?.().map(([address]) => address);
  const refusal = refuseAtEdge({ channel: "dns", host: name, ...(servers !== undefined ? { servers } : {}) });
  if (refusal !== undefined) throw edgeError(refusal);
}
