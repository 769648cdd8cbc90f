import { resolve as resolvePath } from "node:path";
import { bindTools, type BoundTools, type ToolRegistration, type ToolTraits } from "../catchers/bind-tools.js";
import { registerRoute, ROUTE_SEGMENT, type RouteTarget } from "../catchers/routes.js";
import { qualify, samePath, splitPath } from "../catchers/subagent.js";
import type { Executor } from "../catchers/tool-spies.js";
import { httpIsCaught } from "../catchers/msw-http-flag.js";
import { catchModelCall } from "../catchers/model-call.js";
import { isWireAgent } from "../catchers/wire-agent.js";
import { runInTurnContext } from "../catchers/turn-context.js";
import type { Caught, CaughtHttpCall, CaughtModelCall, CaughtToolCall, InteractionHost, TurnContext } from "../pipeline/caught.js";
import { buildSteps } from "../pipeline/build-steps.js";
import { ChainCall, isThenable, type ChainHost, type ResultWriter } from "../pipeline/chain-call.js";
import type { Step, Terminal } from "../pipeline/types.js";
import { StubConfigError, TooltraceError } from "../base/errors.js";
import { createResponder, type Responder } from "../model/responder.js";
import { createRuleSet, type RuleSet } from "../stubs/rule-set.js";
import { compactJson, describePending, formatSource } from "../trace/format.js";
import { TurnRecord, type Mutable } from "../trace/records.js";
import { SessionLog } from "../trace/session-log.js";
import { turnToJson } from "../trace/turn-json.js";
import type { Interaction, ToolCall, Turn } from "../trace/types.js";
import { ZERO_USAGE } from "../trace/usage.js";
import { checkMiddleware } from "../middleware/check-middleware.js";
import { sharedMiddleware } from "../middleware/shared-middleware.js";
import { middlewareSteps, TurnMiddleware, type MiddlewareHost } from "../middleware/turn-middleware.js";
import type { Middleware } from "../middleware/types.js";
import { requestView } from "../model/request-view.js";
import { checkUpstream } from "../wire/upstream.js";
import { resolveStrict, strictFromEnv } from "../lifecycle/strict-default.js";
import { sharedHttpMocks } from "../http-mocks/shared-http-mocks.js";
import { compileHttpMocks } from "../http-mocks/validate-http-mock.js";
import { Cassette, defaultCassettePath } from "../cassettes/cassette.js";
import { cassetteStep } from "../pipeline/steps/cassette-step.js";
import { httpMockStep, type HttpMockStep } from "../pipeline/steps/http-mock-step.js";
import { applyReply } from "./apply-reply.js";
import { AskedCalls, type AskedCall } from "../pipeline/asked-calls.js";
import { reportLateCall } from "../lifecycle/late-calls.js";
import { toResolvedReply, writeHttpResult, writeModelResult, writeToolResult } from "../pipeline/result-writers.js";
import type { SessionReport } from "../lifecycle/scope.js";
import type { SendOptions, Session, SessionOptions, UnusedRulesPolicy } from "./types.js";

/** The most tool calls one session records. */
export const MAX_CALLS_PER_SESSION = 10_000;

const EMPTY_REPLY = { text: "", toolCalls: [] } as const;
const OUTSIDE = { kind: "outside" } as const;

let sessionCounter = 0;

/** A caught interaction, recorded and ready to run through the chain; `what` names it in a late-call report. */
interface PreparedCall {
  readonly record: Mutable<Interaction>;
  readonly run: () => unknown;
  readonly what: string;
}

interface RunningTurn {
  readonly turn: TurnRecord;
  readonly context: TurnContext;
  readonly controller: AbortController;
}

/**
 * A conversation with the agent under test. It owns the session's log and chain: every interaction the
 * catchers hand it (tool, model, HTTP) is numbered, run through the chain and recorded.
 */
export class SessionImpl<TMessage> implements Session<TMessage>, InteractionHost, ChainHost {
  readonly name: string;
  readonly strict: boolean;
  readonly unusedRules: UnusedRulesPolicy | undefined;
  readonly turns: TurnRecord[] = [];
  readonly violations: string[] = [];
  readonly log = new SessionLog();
  readonly responder: Responder | undefined;
  readonly upstream: true | string | undefined;
  readonly seed: number | undefined;
  private readonly historyList: TMessage[];
  private readonly rules: RuleSet;
  private readonly bound: BoundTools;
  private readonly steps: readonly Step[];
  private readonly agent: SessionOptions<TMessage>["agent"];
  private readonly asked = new AskedCalls();
  private running: RunningTurn | undefined;
  /** Agent runs that have not settled, even if their turn ended (timed out): the tools stay caught until they do. */
  private agentsInFlight = 0;
  private callCount = 0;
  private modelCallsSeeded = 0;
  private closed = false;
  private routeToken: string | undefined;
  private readonly toolNames: readonly string[];
  /** The subagent paths given in `subagents` (`researcher`, `researcher/assistant`). */
  private readonly subagentPaths: ReadonlySet<string>;
  /** The shared middleware (`useMiddleware`), then the session's own. */
  private readonly middleware: readonly Middleware[];
  /** The running turn's middleware, by turn index; gone when the turn ends, so a late call passes through. */
  private readonly turnMiddleware = new Map<number, TurnMiddleware>();
  private readonly middlewareHost: MiddlewareHost;
  private readonly httpMocks: HttpMockStep;
  private readonly cassette: Cassette | undefined;

  constructor(
    options: SessionOptions<TMessage>,
    private readonly testName: string | undefined,
    testPath?: string,
    /** How many sessions its test created before this one: an unnamed session's cassette is named by it. */
    indexInTest = 0,
    /** The test (its task, or its name), which a cassette's writer is known by across retries. */
    test?: unknown,
  ) {
    if (typeof options.agent !== "function") {
      throw new TypeError("[tooltrace] createSession needs `agent`: a function (message, { history, signal }) => reply.");
    }
    this.name = options.name ?? `session ${++sessionCounter}`;
    this.strict = resolveStrict(options.strict);
    this.unusedRules = options.unusedRules;
    this.agent = options.agent;
    this.historyList = [...(options.history ?? [])];
    this.responder = options.llm === undefined ? undefined : createResponder(options.llm);
    this.upstream = checkUpstream(options.upstream);
    if (this.upstream !== undefined && this.responder !== undefined) {
      throw new StubConfigError(
        { pointer: "/upstream" },
        "the session has both `llm` (a mock model answers) and `upstream` (the real model answers).",
        "keep one: `llm` to script the model, `upstream` to call the real one (and record it with a cassette).",
        "session",
      );
    }
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed))
      throw new TypeError(`[tooltrace] createSession({ seed }): the seed must be an integer, got ${String(options.seed)}.`);
    this.seed = options.seed;
    this.middleware = checkMiddleware([sharedMiddleware(), options.middleware]);
    // The run's shared mocks first; anything but an array in `http` is refused by compileHttpMocks itself.
    const shared = sharedHttpMocks();
    const httpMocks = compileHttpMocks(
      options.http === undefined ? shared : Array.isArray(options.http) ? [...shared, ...options.http] : options.http,
    );
    this.httpMocks = httpMockStep(httpMocks, new Set(httpMocks.slice(shared.length).map((mock) => mock.id)), this.seed);
    if (options.http !== undefined && options.http.length > 0 && !httpIsCaught()) {
      throw new StubConfigError(
        { pointer: "" },
        "`http` mocks answer requests that tooltrace's MSW server catches, and none is running.",
        "add `llm: true` to the plugin (`tooltrace({ llm: true })`), or call `startLlmServer()` before creating the session.",
        "session",
      );
    }
    if (options.cassette?.replay !== undefined) checkPrefixReplay(this.upstream, this.strict);
    const cassetteName = options.name ?? `session ${indexInTest + 1}`;
    this.cassette = Cassette.open(
      options.cassette,
      () => (testPath !== undefined && testName !== undefined ? defaultCassettePath(testPath, testName, cassetteName) : undefined),
      {
        description: testName === undefined ? this.name : `${this.name} of test "${testName}"`,
        test,
        index: indexInTest,
        strict: this.strict,
      },
    );
    const recording = this.recording;
    if (recording && strictFromEnv()) {
      throw new StubConfigError(
        { pointer: "/cassette" },
        `TOOLTRACE_STRICT=1 lets nothing go live, and ${this.name} records its cassette (${this.cassette?.path ?? ""}), which means running the real tools and network.`,
        "record without TOOLTRACE_STRICT (TOOLTRACE_CASSETTE=record npx vitest run <file>), and replay in CI.",
        "session",
      );
    }
    if (this.strict && !recording && !isWireAgent(options.agent) && !httpIsCaught()) {
      throw new StubConfigError(
        { pointer: "/strict" },
        "strict mode promises that nothing unanswered goes out, and no HTTP catcher is running in this process: a request from the agent or its tools (fetch, node:http, a provider SDK) would reach the network unseen.",
        "start tooltrace's MSW server before creating the session: `tooltrace({ llm: true })` in the Vitest config (it starts before your modules load), or `startLlmServer()` in a setup file or `beforeAll`; with an MSW server of your own, `startLlmServer({ server })` once it listens.",
        "session",
      );
    }
    this.bound = bindTools(this, options.tools, options.subagents);
    this.subagentPaths = new Set(Object.keys(options.subagents ?? {}).map((path) => splitPath(path).join("/")));
    try {
      // An agent in another process shows its tools only on the wire: rules may name any tool.
      const knownTools = isWireAgent(options.agent) ? undefined : new Set(this.bound.names.keys());
      this.rules = createRuleSet(options.stubs, { ...(knownTools ? { knownTools } : {}), notStubbable: handoffsOf(this.bound.names) });
    } catch (error) {
      this.bound.unbind();
      throw error;
    }
    this.toolNames = [...this.bound.names.keys()];
    this.middlewareHost = {
      name: this.name,
      violation: this.violation.bind(this),
      abortTurn: this.abortTurn.bind(this),
      callLLM: this.callLLM.bind(this),
    };
    const steps = [
      ...middlewareSteps(this.middleware, (turnIndex) => this.turnMiddleware.get(turnIndex)),
      ...(checkSteps(options.steps) ?? []),
    ];
    // Recording means letting the real thing run: a strict session records too.
    this.steps = buildSteps({
      steps,
      rules: this.rules,
      ...(this.httpMocks.active ? { httpMocks: this.httpMocks.step } : {}),
      ...(this.cassette ? { cassette: cassetteStep(this.cassette) } : {}),
      strict: this.strict && !recording,
    });
  }

  /** The session records its cassette: the real thing runs, strict or not. */
  private get recording(): boolean {
    return this.cassette !== undefined && !this.cassette.replaying;
  }

  get history(): readonly TMessage[] {
    return this.historyList;
  }

  get toolCalls(): readonly ToolCall[] {
    return this.turns.flatMap((turn) => turn.toolCalls);
  }

  get interactions(): readonly Interaction[] {
    return this.log.interactions;
  }

  get route(): string {
    if (this.routeToken === undefined) {
      this.routeToken = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(12))).toString("base64url");
      registerRoute(this.routeToken, () => this.routeTarget());
    }
    return `/${ROUTE_SEGMENT}/${this.routeToken}`;
  }

  async send(message: string, options: SendOptions = {}): Promise<Turn> {
    if (this.closed) throw new TooltraceError(`${this.name} is closed; create a new session to send more messages.`);
    if (typeof message !== "string") throw new TypeError("[tooltrace] session.send(message) takes the user message as a string.");
    if (this.running)
      throw new TooltraceError(`${this.name}: turn ${this.running.turn.index} is still running; await each send() before the next one.`);
    const turn = new TurnRecord(this.turns.length, message, this.log.now(), this.toolNames);
    this.turns.push(turn);
    const controller = new AbortController();
    const context: TurnContext = { host: this, turn, path: [] };
    this.running = { turn, context, controller };
    const external = options.signal;
    const onExternalAbort = () => controller.abort(external?.reason);
    if (external?.aborted) onExternalAbort();
    external?.addEventListener("abort", onExternalAbort, { once: true });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              controller.abort(
                new TooltraceError(`turn ${turn.index} timed out after ${options.timeoutMs} ms. ${this.pendingSummary(turn)}`),
              ),
            options.timeoutMs,
          );
    const middleware = this.middleware.length === 0 ? undefined : new TurnMiddleware(this.middlewareHost, turn.index, this.middleware);
    if (middleware !== undefined) {
      this.turnMiddleware.set(turn.index, middleware);
      turn.results = middleware.results;
    }
    try {
      const sent =
        middleware === undefined
          ? message
          : await raceAbort(
              runInTurnContext(context, () => middleware.before(message)),
              controller.signal,
            );
      if (sent !== message) turn.rewriteMessage(sent);
      const history = [...this.historyList];
      const run = runInTurnContext(context, () =>
        Promise.resolve().then(() => this.agent(sent, { history, signal: controller.signal, turn })),
      );
      this.agentsInFlight += 1;
      const settled = () => {
        this.agentsInFlight -= 1;
        if (this.closed && this.agentsInFlight === 0) this.bound.unbind();
      };
      run.then(settled, settled);
      const reply = await raceAbort(run, controller.signal);
      const added = applyReply(turn, sent, reply);
      this.settleAskedCalls(turn, true);
      if (middleware !== undefined) {
        const finished = { message: sent, answer: turn.text, toolCalls: turn.toolCalls, turn };
        await raceAbort(
          runInTurnContext(context, () => middleware.after(finished)),
          controller.signal,
        );
      }
      this.historyList.push(...added);
      turn.finish("completed", this.log.now() - turn.start);
    } catch (error) {
      this.settleAskedCalls(turn, false);
      turn.finish("failed", this.log.now() - turn.start, error);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      external?.removeEventListener("abort", onExternalAbort);
      this.turnMiddleware.delete(turn.index);
      this.running = undefined;
    }
    return turn;
  }

  handle(context: TurnContext, caught: Caught, terminal: Terminal): unknown {
    const turn = context.turn as TurnRecord;
    const late = this.closed || turn.status !== "running";
    const host = late ? this.lateHost() : this;
    const call =
      caught.kind === "tool"
        ? this.toolCall(turn, context, caught, terminal, host)
        : caught.kind === "model"
          ? this.modelCall(turn, context, caught, terminal, host)
          : this.httpCall(turn, context, caught, terminal, host);
    if (!late) return call.run();
    call.record.late = true;
    return this.runLate(call.record, call.run, call.what);
  }

  violation(message: string, turnIndex: number | undefined): void {
    if (this.closed) {
      reportLateCall(`${this.describeOwner()}: ${message}`);
      return;
    }
    this.violations.push(message);
    const turn = turnIndex === undefined ? this.running?.turn : this.turns[turnIndex];
    turn?.violations.push(message);
  }

  uncaught(context: TurnContext, method: string, url: string): string | undefined {
    if (!this.strict || this.recording) return undefined;
    const turn = context.turn as TurnRecord;
    const message = `strict mode: ${method} ${url} went out through a \`fetch\` that tooltrace's MSW server never saw (a client or module that kept \`fetch\` from before the server started), so it was refused. Create the client after the server starts, or start the server before your modules load: tooltrace({ llm: true }).`;
    const record = this.log.openHttp(turn, {
      kind: "http",
      method,
      url,
      ...(context.parentSeq !== undefined ? { parentSeq: context.parentSeq } : {}),
    });
    record.status = "rejected";
    record.answeredBy = { kind: "strict" };
    record.error = { name: "TypeError", message };
    this.log.close(record);
    this.violation(message, turn.index);
    return message;
  }

  /** The session's seed and the number of this model call in the session, for the mock model's responders. */
  nextModelSeed(): { seed: number | undefined; call: number } {
    this.modelCallsSeeded += 1;
    return { seed: this.seed, call: this.modelCallsSeeded };
  }

  /** Ends turn `turnIndex` with `error` if it is the one running (a middleware's `abort`, or its failure). */
  abortTurn(turnIndex: number, error: Error): void {
    if (this.running?.turn.index === turnIndex) this.running.controller.abort(error);
  }

  /** One prompt to the session's model, with no tools, traced as a model call of turn `turnIndex` (`ctx.callLLM`). */
  async callLLM(turnIndex: number, prompt: string): Promise<string> {
    if (this.responder === undefined) {
      throw new TooltraceError(
        `ctx.callLLM needs the session's model: create ${this.name} with \`llm\` (anything mockModel() accepts), e.g. createSession({ llm: (request) => "..." }).`,
      );
    }
    if (typeof prompt !== "string") throw new TypeError("[tooltrace] ctx.callLLM(prompt): `prompt` must be a string.");
    const running = this.running?.turn.index === turnIndex ? this.running.context : undefined;
    const request = requestView([{ role: "user", text: prompt }], [], []);
    const reply = await catchModelCall(
      this.responder,
      { provider: "tooltrace.callLLM", model: "session-llm", streamed: false, request },
      undefined,
      running,
    );
    return reply.text;
  }

  takeViolations(): string[] {
    return this.violations.splice(0);
  }

  ruleUsage(): ReadonlyMap<string, number> {
    return this.rules.usage();
  }

  unusedRuleIds(): string[] {
    return [...this.rules.unusedRuleIds(), ...this.httpMocks.unusedIds()];
  }

  close(): SessionReport {
    let stillRunning: string | undefined;
    if (!this.closed) {
      if (this.running) {
        const { turn, controller } = this.running;
        stillRunning = `turn ${turn.index} was still running when its test ended. ${this.pendingSummary(turn)}`;
        controller.abort(new TooltraceError(`${this.name} closed: its test ended while turn ${turn.index} was running.`));
      }
      this.closed = true;
      if (this.agentsInFlight === 0) this.bound.unbind();
      try {
        this.cassette?.save();
      } catch (error) {
        // The report fails the test; the other sessions still close.
        this.violations.push(
          `${this.name}: the cassette ${this.cassette?.path ?? ""} could not be written: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return {
      name: this.name,
      strict: this.strict,
      unusedRuleIds: this.unusedRuleIds(),
      violations: [...this.violations],
      turnsJson: () => this.turns.map(turnToJson),
      ...(this.unusedRules ? { unusedRules: this.unusedRules } : {}),
      ...(stillRunning ? { stillRunning } : {}),
      ...(this.cassette
        ? { cassette: { path: resolvePath(this.cassette.path), mode: this.cassette.replaying ? ("replay" as const) : ("record" as const) } }
        : {}),
    };
  }

  [Symbol.dispose](): void {
    this.close();
  }

  private toolCall(turn: TurnRecord, context: TurnContext, caught: CaughtToolCall, terminal: Terminal, host: ChainHost): PreparedCall {
    const registration = this.bound.executors.get(caught.executor as Executor);
    // An executor serving several tools (an MCP client) names the tool per call; a tool the server never
    // listed keeps its own name, which no rule can name.
    const tool =
      caught.toolName !== undefined && registration?.aliases
        ? (registration.aliases.get(caught.toolName) ?? caught.toolName)
        : (registration?.name ?? caught.executor.label);
    const path = registration ? pathOf(registration, context.path) : context.path;
    const qualifiedName = qualify(tool, path);
    if (this.callCount >= MAX_CALLS_PER_SESSION) {
      const message = `${this.name} made more than ${MAX_CALLS_PER_SESSION} tool calls; a session records at most ${MAX_CALLS_PER_SESSION}. Is the agent looping? Split long scenarios into several sessions.`;
      if (this.callCount === MAX_CALLS_PER_SESSION) this.violation(message, turn.index);
      this.callCount += 1;
      throw new TooltraceError(message);
    }
    this.callCount += 1;
    const asked = this.asked.claim(qualifiedName, tool, caught.callId, caught.toolName);
    const record = this.log.openTool(turn, caught.callId ?? asked?.id ?? `call_${this.callCount}`, tool, path, qualifiedName, caught.input);
    // A delegation tool (named like a subagent path, `researcher`) runs its subagent inside that path, so the
    // subagent's calls are `researcher/...` even on a shared tools record; strict mode lets it run, since
    // every call it makes is caught in turn. An Agents SDK handoff only names the next agent, so it runs too.
    // HTTP made while a real tool runs is linked to it. These need a context of their own; otherwise the call
    // stays in the current one.
    const subagent = this.subagentPaths.has(qualifiedName) ? [...path, tool] : undefined;
    const routing = subagent !== undefined || this.bound.names.get(qualifiedName)?.handoff === true;
    const real: Terminal =
      routing || httpIsCaught()
        ? {
            source: terminal.source,
            live: !routing,
            run: (input, progress) =>
              runInTurnContext({ ...context, path: subagent ?? context.path, parentSeq: record.seq }, () => terminal.run(input, progress)),
          }
        : terminal;
    const steps = registration === undefined && caught.wire !== true ? [this.foreignToolStep(tool), ...this.steps] : this.steps;
    return {
      record,
      run: () =>
        new ChainCall(host, record, qualifiedName, caught.input, real, caught.traced ? tracedWith(caught.traced) : writeToolResult).run(
          steps,
        ),
      what: `${qualifiedName}(${compactJson(caught.input)})`,
    };
  }

  private modelCall(turn: TurnRecord, context: TurnContext, caught: CaughtModelCall, terminal: Terminal, host: ChainHost): PreparedCall {
    for (const { asked, result } of this.asked.answeredIn(caught.request)) this.recordOutside(turn, asked, result.isError, result.output);
    const record = this.log.openModel(turn, {
      kind: "model",
      provider: caught.provider,
      model: caught.model,
      path: context.path,
      request: caught.request,
      reply: EMPTY_REPLY,
      streamed: caught.streamed,
      usage: ZERO_USAGE,
      ...(caught.http ? { http: { ...caught.http } } : {}),
    });
    caught.onRecord?.(record);
    const call = new ChainCall(host, record, `${caught.provider} ${caught.model}`, caught.request, terminal, writeModelResult);
    const run = () =>
      Promise.resolve(call.run(this.steps)).then(
        (reply) => {
          this.asked.noteReply(record);
          return toResolvedReply(reply);
        },
        (error: unknown) => {
          if (record.answeredBy?.kind === "mock-model") {
            this.violation(`the mock model failed (${record.provider}, model ${record.model}): ${record.error?.message ?? ""}`, turn.index);
          }
          throw error;
        },
      );
    return { record, run, what: `a model call to ${caught.provider} ${caught.model}` };
  }

  private httpCall(turn: TurnRecord, context: TurnContext, caught: CaughtHttpCall, terminal: Terminal, host: ChainHost): PreparedCall {
    const body = caught.request?.body;
    const record = this.log.openHttp(turn, {
      kind: "http",
      method: caught.method,
      url: caught.url,
      ...(body !== undefined ? { requestBody: body } : {}),
      ...(context.parentSeq !== undefined ? { parentSeq: context.parentSeq } : {}),
    });
    const input = caught.request ?? { method: caught.method, url: caught.url };
    return {
      record,
      run: () => new ChainCall(host, record, `${caught.method} ${caught.url}`, input, terminal, writeHttpResult).run(this.steps),
      what: `HTTP ${caught.method} ${caught.url}`,
    };
  }

  /** A step first in line for an executor this session was not given (another session patched it). */
  private foreignToolStep(tool: string): Step {
    return {
      name: "session tools",
      run: (ctx, next) => {
        if (!ctx.strict) return next();
        return ctx.reject(
          `strict mode: ${ctx.name} is not among ${this.name}'s tools, so it did not run. Pass it in \`tools\`, or create the session without \`strict: true\`.`,
          { kind: "strict" },
        );
      },
    };
  }

  /** The chain host for a late call: its one report comes from `runLate`, once the call is answered. */
  private lateHost(): ChainHost {
    return { name: this.name, strict: this.strict, log: this.log, violation: () => undefined };
  }

  /** Runs a call that arrived after its turn ended and reports it, with what answered it, once it is answered. */
  private runLate(record: Interaction, run: () => unknown, what: string): unknown {
    const report = () => {
      const outcome =
        record.status === "pending"
          ? ""
          : `; ${record.status === "rejected" ? "refused" : "answered"} by ${formatSource(record.answeredBy, record.kind)}`;
      this.violation(
        `${what} arrived after turn ${record.turnIndex} had ended${outcome}. Await everything the agent starts before the turn ends, or cancel it on \`signal\`.`,
        record.turnIndex,
      );
    };
    let result: unknown;
    try {
      result = run();
    } catch (error) {
      report();
      throw error;
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => (report(), value),
        (error: unknown) => {
          report();
          throw error;
        },
      );
    }
    report();
    return result;
  }

  /**
   * At the end of a turn: tool calls the model asked for that neither reached the chain nor were answered
   * by the agent. They are recorded as never run; in strict mode each fails the test, since a tool that ran
   * outside tooltrace is exactly what strict mode promises cannot happen. Calls awaiting approval, and tools
   * the app answers itself, stay open.
   */
  private settleAskedCalls(turn: TurnRecord, completed: boolean): void {
    const unanswered = this.asked.takeUnanswered(turn.index, (asked) => {
      const traits = this.traitsOf(asked);
      return traits !== undefined && (traits.approval || traits.noExecutor);
    });
    for (const asked of unanswered) {
      this.recordOutside(turn, asked, true, "the model asked for this call, but it never reached tooltrace");
      if (completed && this.strict) {
        this.violation(
          `the model asked for ${asked.qualifiedName}(${compactJson(asked.input)}), but no call of ${asked.qualifiedName} reached tooltrace: is its executor among the session's tools?`,
          turn.index,
        );
      }
    }
  }

  /** Records a call the model asked for that the agent answered without the chain (or never ran). */
  private recordOutside(turn: TurnRecord, asked: AskedCall, isError: boolean, output: unknown): void {
    const record = this.log.openTool(turn, asked.id, asked.name, asked.path, asked.qualifiedName, asked.input);
    record.answeredBy = OUTSIDE;
    if (isError) {
      record.status = "rejected";
      record.error = { name: "Error", message: typeof output === "string" ? output : compactJson(output, 500) };
    } else {
      record.status = "completed";
      record.output = output;
      const traits = this.traitsOf(asked);
      if (this.strict && !traits?.noExecutor) {
        this.violation(
          `the model asked for ${asked.qualifiedName}, and a result came back, but no call of ${asked.qualifiedName} reached tooltrace: is its executor among the session's tools?`,
          turn.index,
        );
      }
    }
    this.log.close(record);
  }

  /** What the session was told about the tool a model call asked for, by its qualified name or else its bare one. */
  private traitsOf(asked: AskedCall): ToolTraits | undefined {
    return this.bound.names.get(asked.qualifiedName) ?? this.bound.names.get(asked.name);
  }

  private routeTarget(): RouteTarget {
    if (this.closed) return { problem: `${this.describeOwner()} is closed; a request on its route arrived after its test ended` };
    if (this.running === undefined)
      return { problem: `${this.name} has no turn running; requests on its route are answered only during session.send()` };
    return { context: this.running.context };
  }

  private pendingSummary(turn: TurnRecord): string {
    const now = this.log.now();
    const pending = turn.interactions.filter((record) => record.status === "pending");
    if (pending.length === 0) return "Nothing tooltrace caught was pending: the agent was busy elsewhere.";
    return `Pending: ${pending.map((record) => describePending(record, now)).join("; ")}.`;
  }

  private describeOwner(): string {
    return this.testName === undefined ? this.name : `${this.name} of test "${this.testName}"`;
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
  if (!Array.isArray(steps))
    throw new TypeError("[tooltrace] createSession({ steps }): `steps` must be an array of { name, run(ctx, next) }.");
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
      throw new TypeError(`[tooltrace] createSession({ steps }): step #${i} must be { name: string, run(ctx, next) }.`);
    }
    if (names.has(candidate.name))
      throw new TypeError(
        `[tooltrace] createSession({ steps }): two steps are named "${candidate.name}"; names must be unique, the trace shows them.`,
      );
    names.add(candidate.name);
  }
  return steps as readonly Step[];
}

/** The path a call is named by: the active one if the executor was given there, else its only path. */
function pathOf(registration: ToolRegistration, active: readonly string[]): readonly string[] {
  const { paths } = registration;
  if (paths.some((path) => samePath(path, active))) return active;
  return paths.length === 1 ? (paths[0] as readonly string[]) : active;
}

function handoffsOf(names: ReadonlyMap<string, ToolTraits>): Map<string, string> {
  const handoffs = [...names].filter(([, traits]) => traits.handoff);
  return new Map(
    handoffs.map(([name]) => [
      name,
      "it is an OpenAI Agents SDK handoff, which must return the agent it hands to; stub the tools of that agent (its subagent path) instead.",
    ]),
  );
}

function tracedWith(traced: (result: unknown) => unknown): ResultWriter<ToolCall> {
  return (record, output) => writeToolResult(record, traced(output));
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The work may have aborted the turn itself before failing: its failure is the abort's, already reported.
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
