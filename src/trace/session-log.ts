import type { Mutable, TurnRecord } from "./records.js";
import type { HttpCall, Interaction, ModelCall, ToolCall } from "./types.js";

type Fields<T extends Interaction> = Omit<T, "seq" | "turnIndex" | "startedAt" | "start" | "status">;

/**
 * One ordered log per session: every tool call, model call and HTTP exchange, numbered in the order it
 * started, on one monotonic clock. Each turn's `toolCalls`, `modelCalls` and `httpCalls` hold the same
 * records, so the views and the log never disagree.
 */
export class SessionLog {
  readonly interactions: Mutable<Interaction>[] = [];
  private readonly origin = performance.now();

  /** Milliseconds since the session was created, monotonic. */
  now(): number {
    return performance.now() - this.origin;
  }

  openTool(turn: TurnRecord, fields: Fields<ToolCall>): Mutable<ToolCall> {
    const record = this.open(turn, fields) as Mutable<ToolCall>;
    turn.toolCalls.push(record);
    return record;
  }

  openModel(turn: TurnRecord, fields: Fields<ModelCall>): Mutable<ModelCall> {
    const record = this.open(turn, fields) as Mutable<ModelCall>;
    turn.modelCalls.push(record);
    return record;
  }

  openHttp(turn: TurnRecord, fields: Fields<HttpCall>): Mutable<HttpCall> {
    const record = this.open(turn, fields) as Mutable<HttpCall>;
    turn.httpCalls.push(record);
    return record;
  }

  /** Marks a record finished now. */
  close(record: Mutable<Interaction>): void {
    record.end = this.now();
    record.durationMs = record.end - record.start;
  }

  private open(turn: TurnRecord, fields: Fields<Interaction>): Mutable<Interaction> {
    const record = {
      seq: this.interactions.length + 1,
      turnIndex: turn.index,
      startedAt: Date.now(),
      start: this.now(),
      status: "pending",
      ...fields,
    } as Mutable<Interaction>;
    this.interactions.push(record);
    return record;
  }
}
