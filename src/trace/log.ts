import type { MockModelRequest } from "./request-view.js";
import { type Mutable, TurnRecord } from "./records.js";
import { toTraceError } from "./to-trace-error.js";
import type { AnswerSource, HttpCall, Interaction, ModelCall, ModelToolCall, ToolCall, TraceChange, TurnStatus, Usage } from "./types.js";
import { ZERO_USAGE } from "./usage.js";
import { costOf, isPaidCall, type Prices, pricesFor } from "./cost.js";
import type { OpenHttpCall, OpenModelCall } from "./open-calls.js";

/** A tool call the model asked for, as the log records it when it never reached the chain. */
export interface OutsideCall {
  readonly id: string;
  readonly name: string;
  readonly path: readonly string[];
  readonly qualifiedName: string;
  readonly input: unknown;
}

const EMPTY_REPLY = { text: "", toolCalls: [] } as const;

/** The one cast in tooltrace through a readonly trace type: the log writes the records it made. */
function writable<T>(record: T): Mutable<T> {
  return record as Mutable<T>;
}

/**
 * One ordered log per session and the only writer of its records: its turns and every tool call, model call
 * and HTTP exchange, numbered in the order they started on one monotonic clock, and the violations that fail
 * the test. Each turn's `toolCalls`, `modelCalls` and `httpCalls` hold the same records, so the views and
 * the log never disagree. Everyone else reads records through their readonly types.
 */
export class SessionLog {
  readonly turns: TurnRecord[] = [];
  readonly interactions: Interaction[] = [];
  /** Violations not yet taken, each with its turn (none for the session's own, such as a cassette write). */
  private readonly standing: { readonly message: string; readonly turn: TurnRecord | undefined }[] = [];
  private readonly origin = performance.now();
  /** The wall clock when the log began: records' `startedAt` is read off it and the monotonic clock. */
  private readonly wallOrigin = Date.now();

  /** `prices`: what each model's tokens cost, the shipped and the plugin's under them (see `pricesFor`). */
  constructor(private readonly prices: Prices = pricesFor(undefined)) {}

  /** Milliseconds since the session was created, monotonic. */
  now(): number {
    return performance.now() - this.origin;
  }

  openTurn(message: string, tools: readonly string[]): TurnRecord {
    const turn = new TurnRecord(this.turns.length, message, this.now(), tools);
    this.turns.push(turn);
    return turn;
  }

  /** A middleware's `beforeEval` rewrote the message: the turn keeps both. */
  rewriteMessage(turn: TurnRecord, message: string): void {
    turn.originalUserMessage ??= turn.userMessage;
    turn.userMessage = message;
  }

  /** What the agent said: its final text, every text it said, and the usage it reported. */
  answer(turn: TurnRecord, text: string, assistantTexts: readonly string[], reportedUsage: Usage | undefined): void {
    turn.text = text;
    turn.assistantTexts = assistantTexts;
    turn.reportedUsage = reportedUsage;
  }

  /** Where the middleware's `afterEval` results are kept (the turn shows them as they arrive). */
  results(turn: TurnRecord, results: Readonly<Record<string, unknown>>): void {
    turn.results = results;
  }

  finishTurn(turn: TurnRecord, status: Exclude<TurnStatus, "running">, error?: unknown): void {
    turn.status = status;
    if (error !== undefined) turn.error = toTraceError(error, true);
    turn.durationMs = this.now() - turn.start;
  }

  /** Opens a tool call. Built as one literal with every field, so records share one shape: calls are the hot path. */
  openTool(turn: TurnRecord, id: string, tool: string, path: readonly string[], qualifiedName: string, input: unknown): ToolCall {
    const start = this.now();
    const record: ToolCall = {
      seq: this.interactions.length + 1,
      kind: "tool",
      turnIndex: turn.index,
      status: "pending",
      answeredBy: undefined,
      startedAt: this.wallOrigin + Math.round(start),
      start,
      end: undefined,
      durationMs: undefined,
      id,
      tool,
      path,
      qualifiedName,
      input,
      output: undefined,
    };
    this.interactions.push(record);
    turn.toolCalls.push(record);
    return record;
  }

  /** Opens a model call, every field in one literal (a record built by spreading is a slow one). */
  openModel(turn: TurnRecord, call: OpenModelCall): ModelCall {
    const start = this.now();
    const record: ModelCall = {
      seq: this.interactions.length + 1,
      kind: "model",
      turnIndex: turn.index,
      status: "pending",
      answeredBy: undefined,
      startedAt: this.wallOrigin + Math.round(start),
      start,
      end: undefined,
      durationMs: undefined,
      provider: call.provider,
      model: call.model,
      path: call.path,
      request: call.request,
      reply: EMPTY_REPLY,
      streamed: call.streamed,
      usage: ZERO_USAGE,
      step: undefined,
      http: call.http,
      judge: call.judge,
    };
    this.interactions.push(record);
    // A judge's call is the turn's, beside the agent's: in its own list.
    (call.judge === undefined ? turn.modelCalls : turn.judgeCalls).push(record);
    return record;
  }

  /** Opens an HTTP exchange, linked to the tool call it was made in (`parentSeq`). */
  openHttp(turn: TurnRecord, call: OpenHttpCall): HttpCall {
    const start = this.now();
    const record: HttpCall = {
      seq: this.interactions.length + 1,
      kind: "http",
      turnIndex: turn.index,
      status: "pending",
      answeredBy: undefined,
      startedAt: this.wallOrigin + Math.round(start),
      start,
      end: undefined,
      durationMs: undefined,
      method: call.method,
      url: call.url,
      requestBody: call.requestBody,
      statusCode: undefined,
      parentSeq: call.parentSeq,
    };
    this.interactions.push(record);
    turn.httpCalls.push(record);
    return record;
  }

  /** Which step answered: `source` replaces what an earlier step said (the last to answer is the one the agent saw). */
  answeredBy(record: Interaction, source: AnswerSource): void {
    writable(record).answeredBy = source;
    this.price(record);
  }

  /** The end of the chain answered, unless a step already did. */
  answeredByDefault(record: Interaction, source: AnswerSource): void {
    writable(record).answeredBy ??= source;
    this.price(record);
  }

  /** A step passed the call on with another input: the trace keeps what the agent sent beside it. */
  rewriteInput(record: Interaction, input: unknown, originalInput: unknown, by: string): void {
    const open = writable(record);
    if (open.kind === "tool") {
      if (!("originalInput" in open)) (open as Mutable<ToolCall>).originalInput = originalInput;
      (open as Mutable<ToolCall>).input = input;
    } else if (open.kind === "model") {
      (open as Mutable<ModelCall>).request = input as MockModelRequest;
    }
    this.changed(record, by, "input");
  }

  changed(record: Interaction, by: string, what: TraceChange["what"]): void {
    const open = writable(record);
    open.changes = [...(open.changes ?? []), { by, what }];
  }

  /** The mock model's script step answering a model call (1-based). */
  step(record: ModelCall, step: number): void {
    writable(record).step = step;
  }

  /** The call arrived after its turn had ended. */
  late(record: Interaction): void {
    writable(record).late = true;
  }

  /** The status the client of a wire model call got; or `"ended"`: its streamed body's last byte left, the call's end. */
  httpStatus(record: ModelCall, sent: number | "ended"): void {
    const open = writable(record);
    if (sent === "ended") this.settle(open, open.status as "completed");
    else if (open.http) open.http = { ...open.http, statusCode: sent };
  }

  /** What a call to the real model waited on the provider's account (see `ProviderWait`). */
  providerWait(record: ModelCall, wait: NonNullable<ModelCall["providerWait"]>): void {
    writable(record).providerWait = wait;
  }

  completeTool(record: ToolCall, output: unknown): void {
    const open = writable(record);
    open.output = output;
    this.settle(open, "completed");
  }

  completeModel(record: ModelCall, reply: { readonly text: string; readonly toolCalls: readonly ModelToolCall[] }, usage: Usage): void {
    const open = writable(record);
    open.reply = { text: reply.text, toolCalls: reply.toolCalls };
    open.usage = usage;
    this.settle(open, "completed");
  }

  completeHttp(record: HttpCall, statusCode: number | undefined): void {
    const open = writable(record);
    if (statusCode !== undefined) open.statusCode = statusCode;
    this.settle(open, "completed");
  }

  /** The call raised `error` (`failed`), or was refused without running (`rejected`). */
  fail(record: Interaction, error: unknown, status: "failed" | "rejected"): void {
    const open = writable(record);
    open.error = toTraceError(error);
    this.settle(open, status);
  }

  /** A tool call that never reached the chain, answered by the agent itself (or never run), in one go. */
  outsideTool(turn: TurnRecord, call: OutsideCall, outcome: { readonly output: unknown } | { readonly error: string }): ToolCall {
    const record = this.openTool(turn, call.id, call.name, call.path, call.qualifiedName, call.input);
    this.answeredBy(record, OUTSIDE);
    if ("error" in outcome) this.fail(record, { name: "Error", message: outcome.error }, "rejected");
    else this.completeTool(record, outcome.output);
    return record;
  }

  /** An HTTP request refused before it reached the chain (it skipped every catcher), in one go. */
  refusedHttp(turn: TurnRecord, call: OpenHttpCall, message: string): HttpCall {
    const record = this.openHttp(turn, call);
    this.answeredBy(record, STRICT);
    this.fail(record, { name: "TypeError", message }, "rejected");
    return record;
  }

  /** A record made elsewhere (a deployed agent's server, see `adoptRecorded`): numbered into this log and `turn`. */
  adopt(turn: TurnRecord, record: Interaction): void {
    this.interactions.push(turn.add({ ...record, seq: this.interactions.length + 1, turnIndex: turn.index }));
  }

  /** A problem that fails the test even if the agent recovered, kept on its turn (if any) and the session. */
  violation(message: string, turn: TurnRecord | undefined): void {
    this.standing.push({ message, turn });
    turn?.violations.push(message);
  }

  /** The violations that still stand, in order. */
  get violations(): readonly string[] {
    return this.standing.map((entry) => entry.message);
  }

  /** Returns the standing violations and clears them, from the session and from their turns alike. */
  takeViolations(): string[] {
    const taken = this.standing.splice(0);
    for (const { message, turn } of taken) {
      const at = turn?.violations.indexOf(message) ?? -1;
      if (at !== -1) turn?.violations.splice(at, 1);
    }
    return taken.map((entry) => entry.message);
  }

  private settle(record: Mutable<Interaction>, status: "completed" | "failed" | "rejected"): void {
    record.status = status;
    record.end = this.now();
    record.durationMs = record.end - record.start;
    this.price(record);
  }

  /** A finished model call a real model answered gets its cost (or none, without a price); any other, none. */
  private price(record: Interaction): void {
    if (record.kind !== "model" || record.end === undefined) return;
    const open = writable(record);
    const cost = isPaidCall(record) ? costOf(record.model, record.usage, this.prices) : undefined;
    if (cost === undefined) delete open.costUsd;
    else open.costUsd = cost;
  }
}

const OUTSIDE = { kind: "outside" } as const;
const STRICT = { kind: "strict" } as const;
