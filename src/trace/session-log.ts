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

  /** Opens a tool call. Built as one literal with every field, so records share one shape: calls are the hot path. */
  openTool(turn: TurnRecord, id: string, tool: string, path: readonly string[], qualifiedName: string, input: unknown): Mutable<ToolCall> {
    const start = this.now();
    const record: Mutable<ToolCall> = {
      seq: this.interactions.length + 1,
      kind: "tool",
      turnIndex: turn.index,
      status: "pending",
      answeredBy: undefined,
      startedAt: Date.now(),
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
