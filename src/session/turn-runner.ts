import { MAX_TIMER_MS } from "../base/timer-limit.js";
import { TooltraceError, usageError } from "../exits/errors.js";
import { type MiddlewareHost, TurnMiddleware } from "../middleware/turn-middleware.js";
import type { TurnContext } from "../pipeline/caught.js";
import { runInTurnContext } from "../pipeline/turn-context.js";
import { describePending } from "../trace/format.js";
import type { TurnRecord } from "../trace/records.js";
import type { Turn } from "../trace/types.js";
import type { ToolStub } from "../stubs/types.js";
import { adoptRecorded, recordedCallsOf } from "./adopt-recorded.js";
import { applyReply } from "./apply-reply.js";
import type { SessionParts } from "./session-parts.js";
import { TurnAbort } from "./turn-abort.js";
import type { Agent, AgentContext, AgentReply, SendOptions } from "./types.js";

/** The turn running now. */
export interface RunningTurn {
  readonly turn: TurnRecord;
  readonly context: TurnContext;
  readonly stop: TurnAbort;
}

/**
 * Runs a session's turns, one at a time: the middleware's `beforeEval`, the agent inside the turn's context
 * (so every call it makes reaches the session's pipeline), the reply into the trace, the asked calls
 * reconciled, `afterEval`, and the turn's end, with its time limit and the caller's signal.
 */
export class TurnRunner<TMessage> {
  running: RunningTurn | undefined;
  /** Agent runs that have not settled, even if their turn ended (timed out): the tools stay caught until they do. */
  private agentsInFlight = 0;
  /** The qualified names of the session's tools, which every turn lists. */

  constructor(
    private readonly parts: SessionParts,
    private readonly agent: Agent<TMessage>,
    private readonly history: TMessage[],
    private readonly middlewareHost: MiddlewareHost,
    /** Called when the last agent run settles (the session restores its tools once it is closed, too). */
    private readonly onAgentsSettled: () => void,
  ) {}

  get idle(): boolean {
    return this.agentsInFlight === 0;
  }

  async send(message: string, options: SendOptions): Promise<Turn> {
    const { log, pipeline } = this.parts;
    if (typeof message !== "string") throw usageError("session.send(message) takes the user message as a string.");
    const { timeoutMs } = options;
    if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS))
      throw usageError(
        `send(message, { timeoutMs: ${String(timeoutMs)} }): a number of milliseconds from 1 to ${MAX_TIMER_MS} (Node's timers take no longer).`,
        "give a shorter timeout, or leave it out for none.",
      );
    if (this.running)
      throw new TooltraceError(
        `${this.parts.name}: turn ${this.running.turn.index} is still running; await each send() before the next one.`,
      );
    const turn = log.openTurn(message, [...this.parts.tools.names.keys()]);
    // A timeout, the caller's signal, a middleware's abort or the test's end stops the turn at once, whatever the agent does.
    const stop = new TurnAbort();
    const guard = <T>(work: Promise<T>): Promise<T> => stop.guard(work);
    const context: TurnContext = { pipeline, turn, path: [] };
    this.running = { turn, context, stop };
    const external = options.signal;
    const onExternalAbort = () => stop.abort(external?.reason);
    if (external?.aborted) onExternalAbort();
    external?.addEventListener("abort", onExternalAbort, { once: true });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              stop.abort(new TooltraceError(`turn ${turn.index} timed out after ${options.timeoutMs} ms. ${this.pendingSummary(turn)}`)),
            options.timeoutMs,
          );
    const middleware =
      this.parts.middleware.length === 0 ? undefined : new TurnMiddleware(this.middlewareHost, turn.index, this.parts.middleware);
    if (middleware !== undefined) {
      this.parts.turnMiddleware.set(turn.index, middleware);
      log.results(turn, middleware.results);
    }
    try {
      const sent = middleware === undefined ? message : await guard(runInTurnContext(context, () => middleware.before(message)));
      if (sent !== message) log.rewriteMessage(turn, sent);
      const history = [...this.history];
      const run = runInTurnContext(context, () => this.start(sent, new TurnAgentContext(history, stop, turn, this.parts)));
      this.agentsInFlight += 1;
      const settled = () => {
        this.agentsInFlight -= 1;
        if (this.agentsInFlight === 0) this.onAgentsSettled();
      };
      run.then(settled, settled);
      const reply = await guard(run);
      if (reply !== null && typeof reply === "object" && reply.recorded !== undefined) adoptRecorded(this.parts, turn, reply.recorded);
      const added = applyReply(log, turn, sent, reply);
      pipeline.asked.settleTurn(turn, true);
      if (middleware !== undefined) {
        const finished = { message: sent, answer: turn.text, toolCalls: turn.toolCalls, turn };
        await guard(runInTurnContext(context, () => middleware.after(finished)));
      }
      this.history.push(...added);
      log.finishTurn(turn, "completed");
    } catch (error) {
      const recorded = recordedCallsOf(error);
      if (recorded !== undefined) adoptRecorded(this.parts, turn, recorded);
      pipeline.asked.settleTurn(turn, false);
      log.finishTurn(turn, "failed", error);
    } finally {
      // Tools the agent defined inline joined the session during the turn: the turn lists them.
      if (this.parts.tools.names.size !== turn.tools.length) turn.tools = [...this.parts.tools.names.keys()];
      const settling = pipeline.turnEnds.ended(turn);
      if (settling !== undefined) await settling;
      if (timer !== undefined) clearTimeout(timer);
      external?.removeEventListener("abort", onExternalAbort);
      this.parts.turnMiddleware.delete(turn.index);
      this.running = undefined;
    }
    return turn;
  }

  /** The agent's run as a promise, whether it answers synchronously, asynchronously, or throws. */
  private start(message: string, context: AgentContext<TMessage>): Promise<AgentReply<TMessage>> {
    try {
      return Promise.resolve(this.agent(message, context));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Ends turn `turnIndex` with `error` if it is the one running (a middleware's `abort`, or its failure). */
  abortTurn(turnIndex: number, error: Error): void {
    if (this.running?.turn.index === turnIndex) this.running.stop.abort(error);
  }

  /** What a turn that did not end waits on, for a timeout's message. */
  pendingSummary(turn: TurnRecord): string {
    const now = this.parts.log.now();
    const pending = turn.interactions.filter((record) => record.status === "pending");
    if (pending.length === 0) return "Nothing tooltrace caught was pending: the agent was busy elsewhere.";
    return `Pending: ${pending.map((record) => describePending(record, now)).join("; ")}.`;
  }
}

/** What the agent is given besides the message; its `signal` is made when the agent reads it. */
class TurnAgentContext<TMessage> implements AgentContext<TMessage> {
  constructor(
    readonly history: readonly TMessage[],
    private readonly stop: TurnAbort,
    readonly turn: Turn,
    private readonly parts: Pick<SessionParts, "stubs" | "strict">,
  ) {}

  get stubs(): readonly ToolStub[] {
    return this.parts.stubs;
  }

  get strict(): boolean {
    return this.parts.strict;
  }

  get signal(): AbortSignal {
    return this.stop.signal;
  }
}
