import { captureUserFrame } from "../base/call-site.js";
import { resolve as resolvePath } from "node:path";
import { TooltraceError, usageError } from "../exits/errors.js";
import { catchModelCall } from "../catchers/model-call.js";
import { askUpstreamModel } from "../catchers/judge-wire.js";
import { runInTurnContext } from "../pipeline/turn-context.js";
import { closeRoute, registerRoute, ROUTE_SEGMENT, type RouteTarget } from "../catchers/routes.js";
import { currentScope, type SessionReport } from "../lifecycle/scope.js";
import type { MiddlewareHost } from "../middleware/turn-middleware.js";
import { requestView } from "../model/request-view.js";
import { offeredTools } from "../trace/request-json.js";
import { turnsToJson } from "../trace/turn-json.js";
import type { Interaction, ToolCall, Turn } from "../trace/types.js";
import { servedOf, type SessionParts, type SessionPlace, sessionParts } from "./session-parts.js";
import { checkLateTools } from "./late-tools.js";
import { TurnRunner } from "./turn-runner.js";
import { SESSION_PIPELINE } from "./session-pipeline.js";
import { rememberJudgeLlm } from "./judge-llm.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { TurnContext } from "../pipeline/caught.js";
import type { Responder } from "../model/responder.js";
import type { SendOptions, Session, SessionOptions, UnusedRulesPolicy } from "./types.js";

/**
 * A conversation with the agent under test: it runs turns over the session's pipeline (which every caught
 * call goes to), reconciles what the model asked for with what reached it, and reports what it recorded
 * when its test ends.
 */
export class SessionImpl<TMessage> implements Session<TMessage> {
  readonly name: string;
  readonly strict: boolean;
  readonly unusedRules: UnusedRulesPolicy | undefined;
  private readonly parts: SessionParts;
  private readonly historyList: TMessage[];
  private readonly runner: TurnRunner<TMessage>;
  private readonly asker: ModelAsker;
  private closed = false;
  /** Where the test first sent a message, formatted (`file:line:column`) only when a failure is reported. */
  private sentFrom: (() => string | undefined) | undefined;
  private sent = false;
  private routeToken: string | undefined;

  constructor(
    options: SessionOptions<TMessage>,
    private readonly place: SessionPlace,
  ) {
    this.parts = sessionParts(options, place);
    this.name = this.parts.name;
    this.strict = this.parts.strict;
    this.unusedRules = options.unusedRules;
    this.historyList = [...(options.history ?? [])];
    for (const server of servedOf(options.mcp)) server.use(this);
    this.asker = {
      ask: (turnIndex, prompt, judge) => this.callLLM(turnIndex, prompt, judge),
      within: (turnIndex, judge, fn) => {
        const context = this.judgeContext(turnIndex, judge);
        return context === undefined ? fn() : runInTurnContext(context, fn);
      },
    };
    rememberTurnAsker(this, lastTurnOf(this.parts.log), this.asker);
    const host: MiddlewareHost = {
      name: this.name,
      violation: (message, turnIndex) => this.parts.pipeline.report(message, this.parts.log.turns[turnIndex]),
      abortTurn: (turnIndex, error) => this.runner.abortTurn(turnIndex, error),
      callLLM: (turnIndex, prompt) => this.callLLM(turnIndex, prompt),
    };
    this.runner = new TurnRunner(this.parts, options.agent, this.historyList, host, () => {
      if (this.closed) this.parts.tools.unbind();
    });
  }

  get turns(): readonly Turn[] {
    return this.parts.log.turns;
  }

  get history(): readonly TMessage[] {
    return this.historyList;
  }

  get toolCalls(): readonly ToolCall[] {
    return this.parts.log.turns.flatMap((turn) => turn.toolCalls);
  }

  get interactions(): readonly Interaction[] {
    return this.parts.log.interactions;
  }

  get violations(): readonly string[] {
    return this.parts.log.violations;
  }

  /** @internal The session's pipeline, for an adapter that answers its calls from another process (`mcpServer`). */
  get [SESSION_PIPELINE](): Pipeline {
    return this.parts.pipeline;
  }

  get route(): string {
    if (this.routeToken === undefined) {
      this.routeToken = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(12))).toString("base64url");
      registerRoute(this.routeToken, () => this.routeTarget());
    }
    return `/${ROUTE_SEGMENT}/${this.routeToken}`;
  }

  send(message: string, options: SendOptions = {}): Promise<Turn> {
    if (this.closed) return Promise.reject(new TooltraceError(`${this.name} is closed; create a new session to send more messages.`));
    // A session made at module level or in `beforeAll`: the test its turn runs in fails with what it finds.
    const running = currentScope();
    if (running !== undefined && running !== this.place.scope) running.visit(this);
    // Where the test sent its first message: a failure found when the test ends points there.
    if (!this.sent) {
      this.sent = true;
      this.sentFrom = captureUserFrame();
    }
    return this.runner.send(message, options).then((turn) => {
      rememberTurnAsker(turn, indexOf(turn), this.asker);
      return turn;
    });
  }

  takeViolations(): string[] {
    return this.parts.log.takeViolations();
  }

  ruleUsage(): ReadonlyMap<string, number> {
    return this.parts.rules.usage();
  }

  unusedRuleIds(): string[] {
    return [...this.parts.rules.unusedRuleIds(), ...this.parts.httpMocks.unusedIds()];
  }

  close(): SessionReport {
    let stillRunning: string | undefined;
    const { pipeline, cassette, log } = this.parts;
    if (!this.closed) {
      const running = this.runner.running;
      if (running) {
        stillRunning = `turn ${running.turn.index} was still running when its test ended. ${this.runner.pendingSummary(running.turn)}`;
        running.stop.abort(new TooltraceError(`${this.name} closed: its test ended while turn ${running.turn.index} was running.`));
      }
      try {
        cassette?.save();
      } catch (error) {
        // The report fails the test; the other sessions still close.
        const reason = (error instanceof Error ? error.message : String(error)).replace(/^\[tooltrace\] /, "");
        log.violation(`the cassette ${cassette?.path ?? ""} was not written: ${reason}`, undefined);
      }
      this.closed = true;
      checkLateTools(this.parts);
      this.asker.ask = closedAsker(this.name, this.parts.responder);
      this.asker.within = runAlone;
      pipeline.close();
      if (this.routeToken !== undefined)
        closeRoute(this.routeToken, `${this.parts.owner} is closed; a request on its route arrived after its test ended`);
      if (this.runner.idle) this.parts.tools.unbind();
    }
    const sentFrom = this.sentFrom;
    const report: SessionReport = {
      name: this.name,
      strict: this.strict,
      unusedRuleIds: this.unusedRuleIds(),
      unusedMockIds: this.parts.httpMocks.unusedIds(),
      // Read when the test ends: a test may take the violations after closing the session (a refused cassette).
      get violations() {
        return [...log.violations];
      },
      turnsJson: () => turnsToJson(log.turns),
      offeredTools: () => offeredTools(log.turns),
      ...(this.unusedRules ? { unusedRules: this.unusedRules } : {}),
      ...(stillRunning ? { stillRunning } : {}),
      get sentAt() {
        return sentFrom?.();
      },
      ...(cassette
        ? { cassette: { path: resolvePath(cassette.path), mode: cassette.replaying ? ("replay" as const) : ("record" as const) } }
        : {}),
    };
    this.place.scope?.closed(this, report);
    return report;
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /**
   * One prompt to the session's model, with no tools (`ctx.callLLM`): traced as a model call of turn `turnIndex`
   * while it runs, or as a judge's call of it after. With `upstream` and no `llm`, the real model the agent
   * called answers, through the session's chain.
   */
  private callLLM(turnIndex: number, prompt: string, judge?: string): Promise<string> {
    const running = this.runner.running;
    const during = running?.turn.index === turnIndex ? running.context : undefined;
    if (this.parts.responder === undefined && this.parts.pipeline.upstream !== undefined) {
      const context =
        during !== undefined ? { ...during, judge: judge ?? "ctx.callLLM" } : this.judgeContext(turnIndex, judge ?? "ctx.callLLM");
      if (context !== undefined) return askUpstreamModel(context, prompt);
    }
    return askModel(
      this.name,
      this.parts.responder,
      prompt,
      during ?? (judge === undefined ? undefined : this.judgeContext(turnIndex, judge)),
    );
  }

  /** The context a judge of turn `turnIndex` asks in, after the turn: none once the session closed. */
  private judgeContext(turnIndex: number, judge: string): TurnContext | undefined {
    const turn = this.parts.log.turns[turnIndex];
    return this.closed || turn === undefined ? undefined : { pipeline: this.parts.pipeline, turn, path: [], judge };
  }

  private routeTarget(): RouteTarget {
    const running = this.runner.running;
    if (running === undefined)
      return { problem: `${this.name} has no turn running; requests on its route are answered only during session.send()` };
    return { context: running.context };
  }
}

/** How a judge reaches a session's model; swapped at close for one that holds the model alone. */
interface ModelAsker {
  ask(turnIndex: number, prompt: string, judge?: string): Promise<string>;
  within<T>(turnIndex: number, judge: string, fn: () => Promise<T>): Promise<T>;
}

/** One prompt to a session's model with no tools, traced on the turn `context` runs (none once the session closed). */
async function askModel(name: string, responder: Responder | undefined, prompt: string, context: TurnContext | undefined) {
  if (responder === undefined) {
    throw new TooltraceError(
      `ctx.callLLM needs the session's model: create ${name} with \`llm\` (anything mockModel() accepts), e.g. createSession({ llm: (request) => "..." }).`,
    );
  }
  if (typeof prompt !== "string") throw usageError("ctx.callLLM(prompt): `prompt` must be a string.");
  const request = requestView([{ role: "user", text: prompt }], [], []);
  const reply = await catchModelCall(
    responder,
    { provider: "tooltrace.callLLM", model: "session-llm", streamed: false, request },
    { context },
  );
  return reply.text;
}

/**
 * The asker of a closed session: its model alone. A turn outlives its session in the test's report (judged
 * after close, or kept for the reporters), and must not keep the session's trace, tools and history alive.
 */
function closedAsker(name: string, responder: Responder | undefined): ModelAsker["ask"] {
  return (_turnIndex, prompt) => askModel(name, responder, prompt, undefined);
}

/** The index of a session's last turn, read when a judge asks (a closure made here holds the log alone). */
function lastTurnOf(log: { readonly turns: readonly Turn[] }): () => number {
  return () => log.turns.length - 1;
}

function indexOf(turn: Turn): () => number {
  return () => turn.index;
}

/** A closed session's judge context: none (a closure made in `close()` would keep the session alive). */
function runAlone<T>(_turnIndex: number, _judge: string, fn: () => Promise<T>): Promise<T> {
  return fn();
}

/** The judge's way to the model of a turn's session (`key`: the turn, or the session for its last turn), holding the asker only. */
function rememberTurnAsker(key: object, turnIndex: () => number, asker: ModelAsker): void {
  rememberJudgeLlm(key, {
    ask: (prompt, judge) => asker.ask(turnIndex(), prompt, judge),
    within: (judge, fn) => asker.within(turnIndex(), judge, fn),
  });
}
