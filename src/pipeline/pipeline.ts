import { TooltraceError } from "../exits/errors.js";
import { compactJson } from "../exits/excerpt.js";
import { isResponse } from "../base/web-response.js";
import type { Responder } from "../model/responder.js";
import { toResolvedReply } from "../model/to-resolved-reply.js";
import type { ResolvedReply } from "../model/types.js";
import type { SessionLog } from "../trace/log.js";
import { qualify } from "../trace/paths.js";
import type { TurnRecord } from "../trace/records.js";
import type { Interaction, InteractionKind, ModelCall, ToolCall } from "../trace/types.js";
import type { CaughtHttpCall, CaughtModelCall, CaughtToolCall, TurnContext } from "./caught.js";
import { ChainCall, type ChainEnvironment } from "./chain-call.js";
import { type EdgeGuard, type EdgePolicy, guardEdges, type NetworkPolicy } from "./edge-policy.js";
import { httpIsCaught } from "./http-catching.js";
import { runLate } from "./late-call.js";
import { AskedCallsLedger } from "./reconcile-asked-calls.js";
import { foreignToolStep } from "./steps/foreign-tool-step.js";
import type { ToolDirectory } from "./tool-directory.js";
import { runInTurnContext } from "./turn-context.js";
import { TurnEnds } from "./turn-ends.js";
import type { Step, Terminal } from "./types.js";

/** The most tool calls one session records. */
export const MAX_CALLS_PER_SESSION = 10_000;

/** What a pipeline is built from: a session's log, chain, tools and model. */
export interface PipelineOptions {
  readonly name: string;
  /** The session and its test, for reports of calls that arrive after it closed. */
  readonly owner: string;
  readonly strict: boolean;
  /** The session records its cassette: the real thing runs, and nothing is refused for skipping a catcher. */
  readonly recording: boolean;
  readonly log: SessionLog;
  readonly steps: readonly Step[];
  readonly tools: ToolDirectory;
  /** The session's own mock model for the LLM wire (`createSession({ llm })`). */
  readonly responder?: Responder | undefined;
  /** Where the session's model calls on the wire go when no mock model answers them (`createSession({ upstream })`). */
  readonly upstream?: true | string | undefined;
  /** No step of the session's can replace a model's reply: a live reply may reach the client as it streams. */
  readonly repliesPassThrough?: boolean;
  readonly seed?: number | undefined;
  /** For a strict session that does not record: what may pass the process's edges (sockets, DNS, processes). */
  readonly edges?: EdgePolicy | undefined;
  /** What the session lets out while the run is hermetic. Default: nothing beyond loopback. */
  readonly network?: NetworkPolicy | undefined;
  /** A problem found after the session closed: its test can no longer fail, so the run is told. */
  readonly reportLate: (message: string) => void;
  /** The rule of the session's that came closest to a call of `tool` with `input`, said in a sentence. */
  readonly explainMiss?: (tool: string, input: unknown) => string | undefined;
}

/** A model call opened in the pipeline: run it through the chain, then say what its client was sent. */
export interface ModelCallHandle {
  readonly record: ModelCall;
  run(terminal: Terminal): Promise<ResolvedReply>;
  /** The HTTP status the client of a wire call got, or `"ended"` when its streamed body's last byte left. */
  sent(status: number | "ended"): void;
}

/**
 * The hub of a session: every interaction a catcher hands it (tool, model, HTTP) is opened in the log, run
 * through the chain and closed, named and attributed to its turn. The catchers call it and nothing else of
 * the session; the session builds it, runs turns over it and reports what it recorded.
 */
export class Pipeline implements ChainEnvironment {
  readonly name: string;
  /** Set for a strict session that does not record: it guards the process's edges (see `EdgePolicy`). */
  readonly edges: EdgePolicy | undefined;
  /** What the session lets out while the run is hermetic. */
  readonly network: NetworkPolicy;
  private readonly unguard: (() => void) | undefined;
  readonly strict: boolean;
  readonly log: SessionLog;
  readonly responder: Responder | undefined;
  readonly upstream: true | string | undefined;
  readonly asked: AskedCallsLedger;
  /** The session's tools: the catchers at a library's entry hand it the tools an agent defines inline. */
  readonly tools: ToolDirectory;
  /** What settles when each turn ends. */
  readonly turnEnds = new TurnEnds();
  /**
   * The names an agent in another process calls the tools of an MCP server the session serves
   * (`mcp__tooltrace__get_weather`): its call on the wire is not live, the server answers it from the rules.
   */
  readonly servedOverMcp = new Set<string>();
  /** The environment of a late call: its one report comes from `runLate`, once the call is answered. */
  private readonly silent: ChainEnvironment;
  /** The chain's steps for each kind of interaction: only those that act on it. */
  private readonly stepsFor: Readonly<Record<InteractionKind, readonly Step[]>>;
  private closedNow = false;
  private toolCalls = 0;
  private modelCallsSeeded = 0;

  constructor(private readonly options: PipelineOptions) {
    this.name = options.name;
    this.strict = options.strict;
    this.log = options.log;
    this.tools = options.tools;
    this.responder = options.responder;
    this.upstream = options.upstream;
    this.edges = options.edges;
    this.network = options.network ?? { allowHosts: [], live: false };
    const edges = options.edges;
    this.unguard =
      edges === undefined
        ? undefined
        : guardEdges({
            name: this.name,
            edges,
            refuseOutsideTurn: (message) => {
              this.report(message, undefined);
              return message;
            },
          } satisfies EdgeGuard);
    this.silent = { name: this.name, strict: this.strict, log: this.log, violation: () => undefined };
    const only = (kind: InteractionKind) => options.steps.filter((step) => step.kinds === undefined || step.kinds.includes(kind));
    this.stepsFor = { tool: only("tool"), model: only("model"), http: only("http") };
    this.asked = new AskedCallsLedger(options.log, options.tools, options.strict, (message, turn) => this.report(message, turn));
  }

  /** The rule that came closest to a call no rule matched, for a refusal's message. */
  explainMiss(tool: string, input: unknown): string | undefined {
    return this.options.explainMiss?.(tool, input);
  }

  /** No step of the session's can replace a model's reply: a live reply may reach the client as it streams. */
  get repliesPassThrough(): boolean {
    return this.options.repliesPassThrough === true;
  }

  get closed(): boolean {
    return this.closedNow;
  }

  /** From now on every call is late: reported to the run, never to the closed session's test. */
  close(): void {
    this.closedNow = true;
    this.unguard?.();
  }

  /** A problem that fails the test even if the agent recovers (once closed, the run is told instead). */
  report(message: string, turn: TurnRecord | undefined): void {
    if (this.closedNow) this.options.reportLate(`${this.options.owner}: ${message}`);
    else this.log.violation(message, turn);
  }

  violation(message: string, record: Interaction): void {
    this.report(message, this.log.turns[record.turnIndex]);
  }

  /** A tool call: named, numbered, run through the chain; the answer comes back in the executor's shape. */
  tool(context: TurnContext, caught: CaughtToolCall, terminal: Terminal): unknown {
    const { turn } = context;
    const identity = this.options.tools.identify(caught.executor, caught.toolName, context.path);
    const qualifiedName = qualify(identity.tool, identity.path);
    this.countToolCall(turn);
    const asked = this.asked.calls.claim(qualifiedName, identity.tool, caught.callId, caught.toolName);
    const record = this.log.openTool(
      turn,
      caught.callId ?? asked?.id ?? `call_${this.toolCalls}`,
      identity.tool,
      identity.path,
      qualifiedName,
      caught.input,
    );
    this.asked.reached(record, asked);
    const steps = identity.given || caught.wire === true ? this.stepsFor.tool : [foreignToolStep(this.name), ...this.stepsFor.tool];
    const finish = (value: unknown) => {
      this.log.completeTool(record, caught.traced ? caught.traced(value) : value);
      return value;
    };
    const real = this.inOwnContext(context, record, qualifiedName, identity.path, terminal);
    if (this.isLate(context)) {
      return this.runLate(context, record, `${qualifiedName}(${compactJson(caught.input)})`, (environment) =>
        new ChainCall(environment, record, qualifiedName, caught.input, real, finish).run(steps),
      );
    }
    return new ChainCall(this, record, qualifiedName, caught.input, real, finish).run(steps);
  }

  /** Opens a model call; the catcher runs it with the model at the end of the chain. */
  openModel(context: TurnContext, caught: CaughtModelCall): ModelCallHandle {
    const { turn } = context;
    if (context.judge === undefined) this.asked.requested(turn, caught.request);
    const record = this.log.openModel(turn, {
      provider: caught.provider,
      model: caught.model,
      path: context.path,
      request: caught.request,
      streamed: caught.streamed,
      http: caught.http,
      judge: context.judge,
    });
    const name = `${caught.provider} ${caught.model}`;
    const finish = (value: unknown): ResolvedReply => {
      const reply = toResolvedReply(value);
      this.log.completeModel(record, reply, reply.usage);
      if (record.judge === undefined) this.asked.replied(record);
      return reply;
    };
    // A failure of the mock model itself (a script that ran out, a responder that threw) fails the test.
    const failed = (environment: ChainEnvironment) => {
      if (record.answeredBy?.kind === "mock-model") {
        environment.violation(`the mock model failed (${record.provider}, model ${record.model}): ${record.error?.message ?? ""}`, record);
      }
    };
    return {
      record,
      sent: (status) => this.log.httpStatus(record, status),
      run: (terminal) => {
        const chain = (environment: ChainEnvironment) =>
          new ChainCall(environment, record, name, caught.request, terminal, finish, failed).run(this.stepsFor.model);
        // A step that answers at once (a fault, a refusal) throws synchronously: the caller still gets a promise.
        return new Promise<unknown>((resolve) =>
          resolve(this.isLate(context) ? this.runLate(context, record, `a model call to ${name}`, chain) : chain(this)),
        ) as Promise<ResolvedReply>;
      },
    };
  }

  /** A model call run at once (the AI SDK model object, `ctx.callLLM`). */
  model(context: TurnContext, caught: CaughtModelCall, terminal: Terminal): Promise<ResolvedReply> {
    return this.openModel(context, caught).run(terminal);
  }

  /** An HTTP exchange that is not an LLM call, linked to the tool call it was made in. */
  http(context: TurnContext, caught: CaughtHttpCall, terminal: Terminal): unknown {
    const { method, url } = caught;
    const record = this.log.openHttp(context.turn, { method, url, requestBody: caught.request?.body, parentSeq: context.parentSeq });
    const input = caught.request ?? { method, url };
    const finish = (response: unknown) => {
      this.log.completeHttp(record, isResponse(response) ? response.status : undefined);
      return response;
    };
    const chain = (environment: ChainEnvironment) =>
      new ChainCall(environment, record, `${method} ${url}`, input, terminal, finish).run(this.stepsFor.http);
    return this.isLate(context) ? this.runLate(context, record, `HTTP ${method} ${url}`, chain) : chain(this);
  }

  /** The session's seed and the number of this model call in the session (`peek`: of the next, left unspent). */
  nextModelSeed(peek = false): { readonly seed: number | undefined; readonly call: number } {
    return { seed: this.options.seed, call: peek ? this.modelCallsSeeded + 1 : ++this.modelCallsSeeded };
  }

  /** True for a call that arrived after its turn ended (or its session closed). */
  private isLate(context: TurnContext): boolean {
    return this.closedNow || (context.judge === undefined && context.turn.status !== "running");
  }

  /** Runs a call that arrived after its turn ended: marked late, with no violation of its own, and reported once answered. */
  private runLate(context: TurnContext, record: Interaction, what: string, call: (environment: ChainEnvironment) => unknown): unknown {
    this.log.late(record);
    return runLate(
      record,
      () => call(this.silent),
      (outcome) =>
        this.report(
          `${what} arrived after turn ${record.turnIndex} had ended${outcome}. Await everything the agent starts before the turn ends, or cancel it on \`signal\`.`,
          context.turn,
        ),
    );
  }

  private countToolCall(turn: TurnRecord): void {
    if (this.toolCalls >= MAX_CALLS_PER_SESSION) {
      const message = `${this.name} made more than ${MAX_CALLS_PER_SESSION} tool calls; a session records at most ${MAX_CALLS_PER_SESSION}. Is the agent looping? Split long scenarios into several sessions.`;
      if (this.toolCalls === MAX_CALLS_PER_SESSION) this.report(message, turn);
      this.toolCalls += 1;
      throw new TooltraceError(message);
    }
    this.toolCalls += 1;
  }

  /**
   * The real tool, run in a context of its own where it needs one: a delegation tool (named like a subagent
   * path, `researcher`) runs its subagent inside that path, so the subagent's calls are `researcher/...` even on
   * a shared tools record, and strict mode lets it run, since every call it makes is caught in turn; an Agents
   * SDK handoff only names the next agent, so it runs too; HTTP made while a real tool runs is linked to it.
   */
  private inOwnContext(
    context: TurnContext,
    record: ToolCall,
    qualifiedName: string,
    path: readonly string[],
    terminal: Terminal,
  ): Terminal {
    const subagent = this.options.tools.subagentPaths.has(qualifiedName) ? [...path, record.tool] : undefined;
    const routing = subagent !== undefined || this.options.tools.names.get(qualifiedName)?.handoff === true;
    if (!routing && !httpIsCaught()) return terminal;
    const own: TurnContext = { ...context, path: subagent ?? context.path, parentSeq: record.seq };
    return {
      source: terminal.source,
      live: !routing && terminal.live,
      run: (input, progress) => runInTurnContext(own, () => terminal.run(input, progress)),
    };
  }
}
