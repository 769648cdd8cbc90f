import type { BoundTools } from "../catchers/bind-tools.js";
import type { TurnContext } from "../pipeline/caught.js";
import { Pipeline } from "../pipeline/pipeline.js";
import { endTurnContext } from "../pipeline/turn-context.js";
import { strictStep } from "../pipeline/steps/strict-step.js";
import { stubStep } from "../pipeline/steps/stub-step.js";
import type { Step } from "../pipeline/types.js";
import { createRuleSet } from "../stubs/rule-set.js";
import { SessionLog } from "../trace/log.js";
import type { TurnRecord } from "../trace/records.js";
import { TRACE_FORMAT_VERSION } from "../trace/turn-json.js";
import { interactionToJson } from "../trace/turn-json.js";
import type { Interaction } from "../trace/types.js";
import type { TurnGrant } from "./token.js";

/** What the calls route answers: the request's records in their JSON form, and what strict mode refused. */
export interface RecordedCallsJson {
  readonly version: typeof TRACE_FORMAT_VERSION;
  readonly interactions: readonly Interaction[];
  readonly violations: readonly string[];
}

/** How long what a request left running after its response (a timer, `waitUntil`, `after()`) stays under its rules. */
export const LINGER_MS = 10_000;

/**
 * One request served under a session's rules: a pipeline of its own (the session's stubs, then strict mode
 * for tools), a log with one turn, and the turn context its handler runs in. The server's own model and
 * HTTP calls are recorded, never refused: strict mode is about the tools the rules stand in for.
 */
export class RecordedRequest {
  readonly sid: string;
  readonly log = new SessionLog();
  readonly context: TurnContext;
  private readonly turn: TurnRecord;
  private readonly pipeline: Pipeline;
  private endedNow = false;
  private released = false;
  private lingerTimer: NodeJS.Timeout | undefined;
  private readonly endedPromise: Promise<void>;
  private resolveEnded: () => void = () => undefined;

  /** Throws a `StubConfigError` when the rules do not fit the server's tools (validated as `createSession` does). */
  constructor(
    grant: TurnGrant,
    tools: BoundTools,
    label: string,
    reportLate: (message: string) => void,
    private readonly lingerMs = LINGER_MS,
    private readonly onRelease?: () => void,
  ) {
    this.sid = grant.sid;
    const rules = createRuleSet(grant.stubs, { knownTools: new Set(tools.names.keys()) });
    const steps: Step[] = [stubStep(rules)];
    if (grant.strict) steps.push({ ...strictStep({ allowHosts: [] }, (tool, input) => rules.explainMiss(tool, input)), kinds: ["tool"] });
    const name = "the deployed agent";
    this.pipeline = new Pipeline({ name, owner: name, strict: grant.strict, recording: false, log: this.log, steps, tools, reportLate });
    this.turn = this.log.openTurn(label, [...tools.names.keys()]);
    this.context = { pipeline: this.pipeline, turn: this.turn, path: [] };
    this.endedPromise = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /**
   * The request's work is done: its response went out whole (or its handler finished after the client went
   * away). What it left running (a timer, `waitUntil`, `after()`) still meets its rules, as a local agent's
   * late calls do: recorded as late, answered by the stubs, refused in strict mode, never the real tool
   * unless the rules let it. That lasts until {@link release}. Idempotent.
   */
  end(): void {
    if (this.endedNow) return;
    this.endedNow = true;
    this.pipeline.asked.settleTurn(this.turn, true);
    this.log.finishTurn(this.turn, "completed");
    this.resolveEnded();
    this.lingerTimer = setTimeout(() => this.release(), this.lingerMs);
    this.lingerTimer.unref?.();
  }

  /**
   * Ends the request's context for good: what still runs in it from now on (a timer, a connection pool it
   * started) serves other users, and runs the real tools, unrecorded. Called when another user's request
   * arrives, or {@link LINGER_MS} after the request ended.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.lingerTimer);
    endTurnContext(this.context);
    this.onRelease?.();
  }

  /** The handler answers the response after its client went away: the request ends when it does, or within `boundMs`. */
  endAfterHandler(finished: Promise<unknown>, boundMs: number): void {
    const timer = setTimeout(() => this.end(), boundMs);
    timer.unref?.();
    void finished.finally(() => {
      clearTimeout(timer);
      this.end();
    });
  }

  /** Resolves when the request has ended, or after `waitMs`, whichever comes first. */
  ended(waitMs: number): Promise<void> {
    if (this.endedNow) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    return Promise.race([this.endedPromise, bound]).finally(() => clearTimeout(timer));
  }

  /** Everything recorded so far, as JSON. */
  toJson(): RecordedCallsJson {
    const shared = new Map<string, unknown>();
    return {
      version: TRACE_FORMAT_VERSION,
      interactions: this.log.interactions.map((record) => interactionToJson(record, shared)),
      violations: [...this.log.violations],
    };
  }

  /** Forgotten by the server: any call still arriving is reported as late. */
  close(): void {
    this.pipeline.close();
  }

  /** The request ended and its context still holds its rules. */
  get lingering(): boolean {
    return this.endedNow && !this.released;
  }
}
