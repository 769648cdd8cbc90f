import { urlMatches } from "../src/http-mocks/url-pattern.js";
import { formatHttpCall } from "../src/trace/format.js";
import type { HttpCall } from "../src/trace/types.js";
import { checkCount, countMatches, describeCount, type CountExpectation } from "./lib/count.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { matchValue } from "./lib/match-value.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { diffSection, reportSections } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/** Options of `toHaveRequested`. */
export interface RequestedOptions {
  /** The HTTP method (any case). */
  readonly method?: string;
  /** The request body (parsed JSON, or text), with `toMatchObject`'s subset semantics; a RegExp or predicate works too. */
  readonly body?: unknown;
  /** How many such requests: exact, or a predicate. Default at least one. */
  readonly count?: CountExpectation;
}

/**
 * The turn (or session) made an HTTP request to `url`: a full URL, an MSW-style pattern (`https://api.test/users/:id`,
 * a path alone on any host) or a RegExp, with this method and body, this many times. LLM calls are not HTTP
 * requests here: assert on them with `toHaveModelCalls`.
 */
export function toHaveRequested(
  this: MatcherContext,
  received: unknown,
  url: string | RegExp,
  options: RequestedOptions = {},
): MatcherResult {
  if (typeof url !== "string" && !(url instanceof RegExp))
    throw usageError("toHaveRequested(url, options?): `url` is a URL, a pattern or a RegExp.");
  const expected = checkCount("toHaveRequested", options.count);
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveRequested (a turn or a session)", received) };
  const calls: HttpCall[] = trace.turns.flatMap((turn) => turn.httpCalls ?? []);
  const method = options.method?.toUpperCase();
  const toUrl = calls.filter((call) => urlMatches(url, call.url, "whole URL") && (method === undefined || call.method === method));
  const matching = toUrl.filter((call) => !("body" in options) || matchValue(this, options.body, call.requestBody));
  const n = matching.length;
  const what = `${method ?? "a"} request to ${String(url)}${"body" in options ? " with a matching body" : ""}, ${describeCount(expected)}`;
  const closest = toUrl.at(-1);
  return {
    pass: countMatches(expected, n),
    message: () =>
      reportSections(
        this,
        "toHaveRequested",
        `${this.isNot ? "not " : ""}${what}`,
        `${n} matching request${n === 1 ? "" : "s"} (${calls.length} HTTP request${calls.length === 1 ? "" : "s"} in all)`,
        [
          ...("body" in options && closest !== undefined
            ? [diffSection(this, "Body of the closest request:", options.body, closest.requestBody)]
            : []),
          `HTTP requests (${calls.length}):\n${calls.map((call, i) => `  ${i + 1}. ${formatHttpCall(call)}`).join("\n") || "  (none)"}`,
        ],
      ),
  };
}
