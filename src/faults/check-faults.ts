import { MAX_TIMER_MS } from "../base/timer-limit.js";
import type { Fault, FaultKind } from "./types.js";

const KINDS: readonly FaultKind[] = ["rate_limit", "server_error", "overloaded", "malformed", "stream_cut", "network_error", "slow"];
const FIELDS = new Set(["fault", "calls", "probability", "retryAfter", "status", "afterEvents", "firstTokenMs", "tokensPerSecond"]);

/** A problem in a fault list: the JSON pointer inside the list, what is wrong, and what to do. */
export interface FaultProblem {
  readonly pointer: string;
  readonly problem: string;
  readonly fix: string;
}

/** The first problem of a fault list, or undefined when every fault is valid. */
export function faultListProblem(faults: unknown): FaultProblem | undefined {
  if (!Array.isArray(faults))
    return { pointer: "", problem: "must be an array of faults", fix: 'write `[{ fault: "rate_limit", calls: [1] }]`' };
  for (const [index, fault] of faults.entries()) {
    const problem = faultProblem(fault);
    if (problem !== undefined) return { ...problem, pointer: `/${index}${problem.pointer}` };
  }
  return undefined;
}

function faultProblem(fault: unknown): FaultProblem | undefined {
  if (fault === null || typeof fault !== "object" || Array.isArray(fault))
    return { pointer: "", problem: "a fault must be an object", fix: 'write `{ fault: "rate_limit" }`' };
  const record = fault as Record<string, unknown>;
  const unknownField = Object.keys(record).find((key) => !FIELDS.has(key));
  if (unknownField !== undefined)
    return { pointer: `/${unknownField}`, problem: `unknown field "${unknownField}"`, fix: `use one of ${[...FIELDS].join(", ")}` };
  if (!KINDS.includes(record.fault as FaultKind))
    return { pointer: "/fault", problem: `unknown fault ${JSON.stringify(record.fault)}`, fix: `use one of ${KINDS.join(", ")}` };
  const { calls, probability } = record as Partial<Fault>;
  if (calls !== undefined && probability !== undefined)
    return { pointer: "/probability", problem: "a fault fires on `calls` or by `probability`, not both", fix: "keep one of them" };
  if (calls !== undefined && (!Array.isArray(calls) || calls.length === 0 || !calls.every((n) => Number.isInteger(n) && n >= 1)))
    return { pointer: "/calls", problem: "must be a non-empty array of call numbers from 1", fix: "write `calls: [1]` for the first call" };
  if (probability !== undefined && !(typeof probability === "number" && probability >= 0 && probability <= 1))
    return { pointer: "/probability", problem: "must be a number between 0 and 1", fix: "write `probability: 0.2` for one call in five" };
  for (const field of ["retryAfter", "afterEvents", "firstTokenMs", "tokensPerSecond"] as const) {
    const value = record[field];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0))
      return { pointer: `/${field}`, problem: "must be a number of 0 or more", fix: `remove "${field}" or give a number` };
    // A wait longer than Node's timers take fires at once (with a TimeoutOverflowWarning): refused here instead.
    const limit = field === "retryAfter" ? Math.floor(MAX_TIMER_MS / 1000) : field === "firstTokenMs" ? MAX_TIMER_MS : undefined;
    if (limit !== undefined && typeof value === "number" && value > limit)
      return {
        pointer: `/${field}`,
        problem: `is ${value}, beyond the longest wait Node's timers take (${limit}${field === "retryAfter" ? " s" : " ms"}, about 24.8 days)`,
        fix: `give a shorter ${field === "retryAfter" ? "number of seconds" : "number of milliseconds"}`,
      };
  }
  if (record.tokensPerSecond === 0) return { pointer: "/tokensPerSecond", problem: "must be more than 0", fix: "give a pace such as 50" };
  if (record.status !== undefined && ![500, 502, 503, 504].includes(record.status as number))
    return {
      pointer: "/status",
      problem: "must be 500, 502, 503 or 504",
      fix: 'use `fault: "rate_limit"` for a 429 and `"overloaded"` for a 529',
    };
  if (record.status !== undefined && record.fault !== "server_error")
    return { pointer: "/status", problem: `only a server_error has a status (this is ${String(record.fault)})`, fix: "remove it" };
  return undefined;
}
