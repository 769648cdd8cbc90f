import { StubConfigError, usageError } from "../exits/errors.js";
import { compactJson } from "../exits/excerpt.js";
import { Cassette, defaultCassettePath } from "../cassettes/cassette.js";
import { type BoundTools, bindTools } from "../catchers/bind-tools.js";
import { catchHttpAtFetch } from "../catchers/fetch-http.js";
import { catchLlmAtFetch } from "../catchers/fetch-wire.js";
import { isWireAgent } from "../catchers/wire-agent.js";
import { installStrictGuards } from "../edges/edge-guards.js";
import { HttpMockSet } from "../http-mocks/mock-set.js";
import { sharedHttpMocks } from "../http-mocks/shared-http-mocks.js";
import { compileHttpMocks } from "../http-mocks/validate-http-mock.js";
import { edgePolicyOf } from "../lifecycle/edge-defaults.js";
import { reportLateCall } from "../lifecycle/late-calls.js";
import type { TestScope } from "../lifecycle/scope.js";
import { resolveStrict, strictFromEnv } from "../lifecycle/strict-default.js";
import { checkMiddleware } from "../middleware/check-middleware.js";
import { sharedMiddleware } from "../middleware/shared-middleware.js";
import type { TurnMiddleware } from "../middleware/turn-middleware.js";
import type { Middleware } from "../middleware/types.js";
import { createResponder, type Responder } from "../model/responder.js";
import { buildSteps } from "../pipeline/build-steps.js";
import { faultListProblem } from "../faults/check-faults.js";
import { FaultPlan } from "../faults/fault-plan.js";
import { httpIsCaught, wireMockIsRunning } from "../pipeline/http-catching.js";
import { Pipeline } from "../pipeline/pipeline.js";
import type { Step } from "../pipeline/types.js";
import { createRuleSet, type RuleSet } from "../stubs/rule-set.js";
import { SessionLog } from "../trace/log.js";
import { checkUpstream } from "../wire/upstream.js";
import type { ToolStub } from "../stubs/types.js";
import { allowHostsWith } from "./agent-hosts.js";
import type { ServedMcp, SessionOptions } from "./types.js";

/** Where a session is created: its test, for its cassette's name and for messages. */
export interface SessionPlace {
  readonly testName: string | undefined;
  readonly testPath: string | undefined;
  /** How many sessions its test created before this one: an unnamed session's cassette is named by it. */
  readonly indexInTest: number;
  /** The test (its task, or its name), which a cassette's writer is known by across retries. */
  readonly test: unknown;
  /** The test's scope, which the session hands its report to when it closes. */
  readonly scope: TestScope | undefined;
}

/** Everything a session is made of, checked: refused here, before anything is patched, when it cannot work. */
export interface SessionParts {
  readonly name: string;
  readonly owner: string;
  readonly strict: boolean;
  readonly log: SessionLog;
  readonly responder: Responder | undefined;
  readonly middleware: readonly Middleware[];
  /** The running turns' middleware, by turn index; gone when a turn ends, so a late call passes through. */
  readonly turnMiddleware: Map<number, TurnMiddleware>;
  readonly httpMocks: HttpMockSet;
  readonly cassette: Cassette | undefined;
  readonly tools: BoundTools;
  readonly rules: RuleSet;
  /** The stub rules as given, for an agent that applies them in another process (`AgentContext.stubs`). */
  readonly stubs: readonly ToolStub[];
  readonly pipeline: Pipeline;
}

let sessionCounter = 0;

/** Checks `options` and builds the session's parts; patches its tools last, undoing that if anything fails after. */
export function sessionParts<TMessage>(options: SessionOptions<TMessage>, place: SessionPlace): SessionParts {
  if (typeof options.agent !== "function")
    throw usageError("createSession needs `agent`: a function (message, { history, signal }) => reply.");
  const name = options.name ?? `session ${++sessionCounter}`;
  const owner = place.testName === undefined ? name : `${name} of test "${place.testName}"`;
  const strict = resolveStrict(options.strict);
  const responder = options.llm === undefined ? undefined : createResponder(options.llm);
  const upstream = checkUpstream(options.upstream);
  if (upstream !== undefined && responder !== undefined) {
    throw new StubConfigError(
      { pointer: "/upstream" },
      "the session has both `llm` (a mock model answers) and `upstream` (the real model answers).",
      "keep one: `llm` to script the model, `upstream` to call the real one (and record it with a cassette).",
      "session",
    );
  }
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed))
    throw usageError(`createSession({ seed }): the seed must be an integer, got ${String(options.seed)}.`);
  const middleware = checkMiddleware([sharedMiddleware(), options.middleware]);
  const httpMocks = httpMocksOf(options.http, options.seed);
  const faults = faultsOf(options.faults, options.seed);
  if (options.cassette?.replay !== undefined) checkPrefixReplay(upstream, strict);
  const cassetteName = options.name ?? `session ${place.indexInTest + 1}`;
  const cassette = Cassette.open(
    options.cassette,
    () =>
      place.testPath !== undefined && place.testName !== undefined
        ? defaultCassettePath(place.testPath, place.testName, cassetteName)
        : undefined,
    { description: owner, test: place.test, index: place.indexInTest, strict, file: place.testPath, testName: place.testName },
  );
  // Recording means letting the real thing run: a strict session records too.
  const recording = cassette !== undefined && !cassette.replaying;
  checkCatchable(options, name, strict, recording, cassette);
  const policy = edgePolicyOf(allowHostsWith(options.allowHosts, options.agent), options.allowProcesses, options.allowSockets);
  const edges = strict && !recording ? policy : undefined;
  if (edges !== undefined) installStrictGuards();
  const tools = bindTools(options.tools, options.subagents, strict && !recording);
  let rules: RuleSet;
  try {
    // An agent in another process shows its tools only on the wire: rules may name any tool.
    const served = servedOf(options.mcp).flatMap((server) => server.toolNames);
    const knownTools = isWireAgent(options.agent) ? undefined : new Set([...tools.names.keys(), ...served]);
    rules = createRuleSet(options.stubs, {
      ...(knownTools ? { knownTools } : {}),
      notStubbable: handoffsOf(tools),
      seed: options.seed ?? 0,
    });
  } catch (error) {
    tools.unbind();
    throw error;
  }
  const log = new SessionLog();
  const turnMiddleware = new Map<number, TurnMiddleware>();
  const ownSteps = checkSteps(options.steps);
  const steps = buildSteps({
    middleware,
    turnMiddleware: (turnIndex) => turnMiddleware.get(turnIndex),
    steps: ownSteps,
    rules,
    httpMocks,
    cassette,
    faults,
    strict: edges,
  });
  const pipeline = new Pipeline({
    name,
    owner,
    strict,
    recording,
    log,
    steps,
    tools,
    responder,
    upstream,
    repliesPassThrough: !(ownSteps ?? []).some((step) => step.kinds === undefined || step.kinds.includes("model")),
    seed: options.seed,
    edges,
    network: { allowHosts: policy.allowHosts, live: upstream !== undefined || recording },
    reportLate: (message) => reportLateCall(message, place.testPath),
    explainMiss: (tool, input) => rules.explainMiss(tool, input),
  });
  const stubs = options.stubs ?? [];
  return { name, owner, strict, log, responder, middleware, turnMiddleware, httpMocks, cassette, tools, rules, stubs, pipeline };
}

/** The MCP servers a session serves, as a list. */
export function servedOf(mcp: SessionOptions["mcp"]): readonly ServedMcp[] {
  return mcp === undefined ? [] : Array.isArray(mcp) ? mcp : [mcp as ServedMcp];
}

/** The session's faults on its model calls, checked (each problem named by its JSON pointer). */
function faultsOf(faults: SessionOptions["faults"], seed: number | undefined): FaultPlan | undefined {
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
function httpMocksOf(http: SessionOptions["http"], seed: number | undefined): HttpMockSet {
  const shared = sharedHttpMocks();
  const mocks = compileHttpMocks(http === undefined ? shared : Array.isArray(http) ? [...shared, ...http] : http);
  if (http !== undefined && http.length > 0 && !catchHttpAtFetch(true) && !httpIsCaught()) {
    throw new StubConfigError(
      { pointer: "" },
      "`http` mocks answer requests tooltrace catches, and in this environment it can neither see `fetch`'s dispatcher nor finds its MSW server running.",
      "call `startLlmServer()` from tooltrace/msw in a setup file or `beforeAll` (under Jest, or Vitest's vm pools).",
      "session",
    );
  }
  return new HttpMockSet(mocks, new Set(mocks.slice(shared.length).map((mock) => mock.id)), seed);
}

/** What the session promises must be catchable: strict needs an HTTP catcher, and CI's strict forbids recording. */
function checkCatchable<TMessage>(
  options: SessionOptions<TMessage>,
  name: string,
  strict: boolean,
  recording: boolean,
  cassette: Cassette | undefined,
): void {
  if (recording && strictFromEnv()) {
    throw new StubConfigError(
      { pointer: "/cassette" },
      `TOOLTRACE_STRICT=1 lets nothing go live, and ${name} records its cassette (${cassette?.path ?? ""}), which means running the real tools and network.`,
      "record without TOOLTRACE_STRICT (TOOLTRACE_CASSETTE=record npx vitest run <file>), and replay in CI.",
      "session",
    );
  }
  // A model on the wire (scripted, or the real one) is answered under `fetch` when no MSW wire mock runs.
  const onTheWire = (options.llm !== undefined || options.upstream !== undefined) && !isWireAgent(options.agent);
  if (!catchLlmAtFetch(onTheWire) && onTheWire && !wireMockIsRunning()) {
    throw new StubConfigError(
      { pointer: options.llm !== undefined ? "/llm" : "/upstream" },
      "the session's model is answered on the LLM wire, and in this environment tooltrace can neither see `fetch`'s dispatcher nor finds a wire mock running: the agent's client would go to its real API.",
      "start the wire mock with MSW: `startLlmServer()` from tooltrace/msw in a setup file or `beforeAll` (under Jest, or Vitest's vm pools).",
      "session",
    );
  }
  if (!catchHttpAtFetch(strict && !recording) && strict && !recording && !isWireAgent(options.agent) && !httpIsCaught()) {
    throw new StubConfigError(
      { pointer: "/strict" },
      "strict mode promises that nothing unanswered goes out, and in this environment tooltrace can neither see `fetch`'s dispatcher nor finds its MSW server running: a request from the agent or its tools would reach the network unseen.",
      "start tooltrace's MSW server before creating the session: `startLlmServer()` from tooltrace/msw in a setup file or `beforeAll` (under Jest, or Vitest's vm pools); with an MSW server of your own, `startLlmServer({ server })` once it listens.",
      "session",
    );
  }
}

/** A prefix replay goes live after its prefix: it needs the real model, and strict mode would refuse it all. */
function checkPrefixReplay(upstream: true | string | undefined, strict: boolean): void {
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

function checkSteps(steps: unknown): readonly Step[] | undefined {
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

function handoffsOf(tools: BoundTools): Map<string, string> {
  const handoffs = [...tools.names].filter(([, traits]) => traits.handoff);
  return new Map(
    handoffs.map(([name]) => [
      name,
      "it is an OpenAI Agents SDK handoff, which must return the agent it hands to; stub the tools of that agent (its subagent path) instead.",
    ]),
  );
}
