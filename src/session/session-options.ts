import { StubConfigError, usageError } from "../exits/errors.js";
import { compactJson } from "../exits/excerpt.js";
import { catchHttpAtFetch } from "../catchers/fetch-http.js";
import { faultListProblem } from "../faults/check-faults.js";
import { FaultPlan } from "../faults/fault-plan.js";
import { HttpMockSet } from "../http-mocks/mock-set.js";
import { sharedHttpMocks } from "../http-mocks/shared-http-mocks.js";
import { compileHttpMocks } from "../http-mocks/validate-http-mock.js";
import { strictAllowToolsFromEnv } from "../lifecycle/strict-default.js";
import { httpIsCaught } from "../pipeline/http-catching.js";
import type { Step } from "../pipeline/types.js";
import type { SessionOptions } from "./types.js";

// Options of `createSession` checked into parts of their own, each refused with its JSON pointer.

/** The session's faults on its model calls, checked (each problem named by its JSON pointer). */
export function faultsOf(faults: SessionOptions["faults"], seed: number | undefined): FaultPlan | undefined {
  if (faults === undefined) return undefined;
  const problem = faultListProblem(faults);
  if (problem !== undefined)
    throw new StubConfigError(
      { pointer: `/faults${problem.pointer}` },
      `faults${problem.pointer}: ${problem.problem}.`,
      problem.fix,
      "session",
    );
  return new FaultPlan(faults, "faults", seed ?? 0);
}

/** The run's shared mocks first, then the session's; anything but an array in `http` is refused by compileHttpMocks. */
export function httpMocksOf(http: SessionOptions["http"], seed: number | undefined): HttpMockSet {
  const shared = sharedHttpMocks();
  const mocks = compileHttpMocks(http === undefined ? shared : Array.isArray(http) ? [...shared, ...http] : http);
  if (http !== undefined && http.length > 0 && !catchHttpAtFetch(true) && !httpIsCaught()) {
    throw new StubConfigError(
      { pointer: "" },
      "`http` mocks answer requests tooltrace catches, and in this environment it can neither see `fetch`'s dispatcher nor finds its MSW server running.",
      "call `startLlmServer()` from tooltrace/msw in a setup file or `beforeAll`.",
      "session",
    );
  }
  return new HttpMockSet(mocks, new Set(mocks.slice(shared.length).map((mock) => mock.id)), seed);
}

/** A prefix replay goes live after its prefix: it needs the real model, and strict mode would refuse it all. */
export function checkPrefixReplay(upstream: true | string | undefined, strict: boolean): void {
  if (upstream === undefined) {
    throw new StubConfigError(
      { pointer: "/cassette/replay/upTo" },
      "`replay: { upTo }` counts exchanges with the real model, and this session's model calls are answered by a mock model.",
      "give the session `upstream` (true, or a base URL) so the exchanges after the prefix reach the real model.",
      "session",
    );
  }
  if (strict) {
    throw new StubConfigError(
      { pointer: "/cassette/replay/upTo" },
      "`replay: { upTo }` goes live after the prefix, and the session is strict, which refuses everything live.",
      "drop `strict` for this session (or the TOOLTRACE_STRICT environment variable for this run).",
      "session",
    );
  }
}

export function checkSteps(steps: unknown): readonly Step[] | undefined {
  if (steps === undefined) return undefined;
  if (!Array.isArray(steps)) throw usageError("createSession({ steps }): `steps` must be an array of { name, run(ctx, next) }.");
  const names = new Set<string>();
  for (const [i, step] of steps.entries()) {
    const candidate = step as Partial<Step> | null;
    if (
      candidate === null ||
      typeof candidate !== "object" ||
      typeof candidate.name !== "string" ||
      candidate.name === "" ||
      typeof candidate.run !== "function"
    ) {
      throw usageError(`createSession({ steps }): step #${i} must be { name: string, run(ctx, next) }.`);
    }
    if (names.has(candidate.name))
      throw usageError(`createSession({ steps }): two steps are named "${candidate.name}"; names must be unique, the trace shows them.`);
    names.add(candidate.name);
    const kinds: unknown = candidate.kinds;
    if (kinds !== undefined && !(Array.isArray(kinds) && kinds.every((kind) => STEP_KINDS.includes(kind))))
      throw usageError(
        `createSession({ steps }): step "${candidate.name}" has kinds ${compactJson(kinds)}; each must be one of ${STEP_KINDS.map((kind) => `"${kind}"`).join(", ")}, or leave \`kinds\` out for every kind.`,
      );
  }
  return steps as readonly Step[];
}

const STEP_KINDS: readonly unknown[] = ["tool", "model", "http"];

/** The tools a strict session lets run for real: its own `allowTools` and the run's `TOOLTRACE_STRICT_ALLOW_TOOLS`. */
export function allowToolsOf(allowTools: unknown): ReadonlySet<string> {
  if (allowTools !== undefined && !(Array.isArray(allowTools) && allowTools.every((name) => typeof name === "string" && name !== "")))
    throw new StubConfigError(
      { pointer: "/allowTools" },
      "`allowTools` lists the tools a strict session lets run for real, by name.",
      'pass an array of tool names: `allowTools: ["send_email"]`.',
      "session",
    );
  return new Set([...((allowTools as readonly string[] | undefined) ?? []), ...strictAllowToolsFromEnv()]);
}
