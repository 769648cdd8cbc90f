import { StubConfigError, usageError } from "../exits/errors.js";
import { Cassette, defaultCassettePath } from "../cassettes/cassette.js";
import { type BoundTools, bindTools } from "../catchers/bind-tools.js";
import { catchHttpAtFetch } from "../catchers/fetch-http.js";
import { catchLlmAtFetch } from "../catchers/fetch-wire.js";
import { isWireAgent } from "../catchers/wire-agent.js";
import { catchNodeHttp } from "../catchers/node-http.js";
import { installStrictGuards } from "../edges/edge-guards.js";
import type { HttpMockSet } from "../http-mocks/mock-set.js";
import { edgePolicyOf } from "../lifecycle/edge-defaults.js";
import { reportLateCall } from "../lifecycle/late-calls.js";
import type { TestScope } from "../lifecycle/scope.js";
import { resolveStrict, strictFromEnv, strictSource } from "../lifecycle/strict-default.js";
import { checkMiddleware } from "../middleware/check-middleware.js";
import { sharedMiddleware } from "../middleware/shared-middleware.js";
import type { TurnMiddleware } from "../middleware/turn-middleware.js";
import type { Middleware } from "../middleware/types.js";
import { createResponder, type Responder } from "../model/responder.js";
import { buildSteps } from "../pipeline/build-steps.js";
import { httpIsCaught, wireMockIsRunning } from "../pipeline/http-catching.js";
import { Pipeline } from "../pipeline/pipeline.js";
import { createRuleSet, type RuleSet } from "../stubs/rule-set.js";
import { SessionLog } from "../trace/log.js";
import { checkUpstream } from "../wire/upstream.js";
import { checkPrices, pricesFor } from "../trace/cost.js";
import type { ToolStub } from "../stubs/types.js";
import { allowHostsWith } from "./agent-hosts.js";
import { allowToolsOf, checkPrefixReplay, checkSteps, faultsOf, httpMocksOf } from "./session-options.js";
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
  /** No tools were given: the rules' tools are checked when the session closes, against those the agent used. */
  readonly toolsKnownLate: boolean;
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
  // `node:http` requests (axios, got, SDKs on them) meet the session's HTTP mocks and strict mode too.
  if (httpMocks.size > 0 || (strict && !recording)) catchNodeHttp();
  const tools = bindTools(options.tools, options.subagents, strict && !recording);
  // No tools given: the agent defines them inline, and the session knows them once the agent hands them to its
  // library (`generateText({ tools })`): its rules are checked against them when the session closes.
  const toolsKnownLate = options.subagents === undefined && tools.names.size === 0 && servedOf(options.mcp).length === 0;
  if (toolsKnownLate) tools.takeInlineTools();
  let rules: RuleSet;
  try {
    // An agent in another process shows its tools only on the wire: rules may name any tool.
    const served = servedOf(options.mcp).flatMap((server) => server.toolNames);
    const knownTools = isWireAgent(options.agent) || toolsKnownLate ? undefined : new Set([...tools.names.keys(), ...served]);
    rules = createRuleSet(options.stubs, {
      ...(knownTools ? { knownTools } : {}),
      notStubbable: handoffsOf(tools),
      seed: options.seed ?? 0,
    });
  } catch (error) {
    tools.unbind();
    throw error;
  }
  const log = new SessionLog(pricesFor(checkPrices(options.prices, "createSession({ prices })")));
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
    strict:
      edges === undefined ? undefined : { ...edges, allowTools: allowToolsOf(options.allowTools), source: strictSource(options.strict) },
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
  return {
    name,
    owner,
    strict,
    log,
    responder,
    middleware,
    turnMiddleware,
    httpMocks,
    cassette,
    tools,
    rules,
    stubs,
    pipeline,
    toolsKnownLate,
  };
}

/** The MCP servers a session serves, as a list. */
export function servedOf(mcp: SessionOptions["mcp"]): readonly ServedMcp[] {
  return mcp === undefined ? [] : Array.isArray(mcp) ? mcp : [mcp as ServedMcp];
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
      "start the wire mock with MSW: `startLlmServer()` from tooltrace/msw in a setup file or `beforeAll`.",
      "session",
    );
  }
  if (!catchHttpAtFetch(strict && !recording) && strict && !recording && !isWireAgent(options.agent) && !httpIsCaught()) {
    throw new StubConfigError(
      { pointer: "/strict" },
      "strict mode promises that nothing unanswered goes out, and in this environment tooltrace can neither see `fetch`'s dispatcher nor finds its MSW server running: a request from the agent or its tools would reach the network unseen.",
      "start tooltrace's MSW server before creating the session: `startLlmServer()` from tooltrace/msw in a setup file or `beforeAll`; with an MSW server of your own, `startLlmServer({ server })` once it listens.",
      "session",
    );
  }
}

function handoffsOf(tools: BoundTools): Map<string, string> {
  const handoffs = [...tools.names].filter(([, traits]) => traits.handoff);
  return new Map(
    handoffs.map(([name]) => [
      name,
      "it is an OpenAI Agents SDK handoff, which must return the agent it hands to; stub the tools of that agent (its subagent path) instead.",
    ]),
  );
}
