import { compactJson } from "../exits/excerpt.js";
import type { MockModelRequest } from "../model/types.js";
import type { SessionLog } from "../trace/log.js";
import type { TurnRecord } from "../trace/records.js";
import type { ModelCall, ToolCall } from "../trace/types.js";
import { type AskedCall, AskedCalls } from "./asked-calls.js";
import type { ToolDirectory, ToolTraits } from "./tool-directory.js";

/**
 * The tool calls the model asked for, reconciled with what reached the chain: a call the agent answered
 * itself is recorded as answered outside tooltrace, and one that never reached tooltrace fails a strict
 * test, since a tool that ran outside tooltrace is exactly what strict mode promises cannot happen.
 */
export class AskedCallsLedger {
  readonly calls = new AskedCalls();

  constructor(
    private readonly log: SessionLog,
    private readonly directory: ToolDirectory,
    private readonly strict: boolean,
    private readonly violation: (message: string, turn: TurnRecord) => void,
  ) {}

  /** A model call starts: the asked calls whose results its request carries were answered by the agent itself. */
  requested(turn: TurnRecord, request: MockModelRequest): void {
    for (const { asked, result } of this.calls.answeredIn(request)) this.recordOutside(turn, asked, result.isError, result.output);
  }

  /** Tool calls that claimed an asked call: a reply read after them (a stream) cannot claim them again. */
  private readonly linked = new WeakSet<ToolCall>();

  /** A tool call that reached the chain claimed `asked` (or none). */
  reached(record: ToolCall, asked: AskedCall | undefined): void {
    if (asked !== undefined) this.linked.add(record);
  }

  /**
   * A model call answered: the tool calls it asks for are expected next. A live stream reaches the client
   * before its reply is read whole, so some may have reached the chain already: those are not expected.
   */
  replied(record: ModelCall): void {
    const turn = this.log.turns[record.turnIndex];
    const early = (turn?.toolCalls ?? []).filter((call) => call.start >= record.start && !this.linked.has(call));
    this.calls.noteReply(record, (asked) => {
      const index = early.findIndex((call) => call.id === asked.id || call.qualifiedName === asked.qualifiedName);
      if (index === -1) return false;
      this.linked.add(early[index] as ToolCall);
      early.splice(index, 1);
      return true;
    });
  }

  /**
   * At the end of a turn: tool calls the model asked for that neither reached the chain nor were answered by
   * the agent are recorded as never run; in strict mode each fails the test. Calls awaiting approval, and
   * tools the app answers itself, stay open.
   */
  settleTurn(turn: TurnRecord, completed: boolean): void {
    const unanswered = this.calls.takeUnanswered(turn.index, (asked) => {
      const traits = this.traitsOf(asked);
      return traits !== undefined && (traits.approval || traits.noExecutor);
    });
    for (const asked of unanswered) {
      this.recordOutside(turn, asked, true, "the model asked for this call, but it never reached tooltrace");
      if (completed && this.strict) {
        this.violation(
          `the model asked for ${asked.qualifiedName}(${compactJson(asked.input)}), but no call of ${asked.qualifiedName} reached tooltrace: is its executor among the session's tools?`,
          turn,
        );
      }
    }
  }

  /** Records a call the model asked for that the agent answered without the chain (or never ran). */
  private recordOutside(turn: TurnRecord, asked: AskedCall, isError: boolean, output: unknown): void {
    if (isError) {
      this.log.outsideTool(turn, asked, { error: typeof output === "string" ? output : compactJson(output, 500) });
      return;
    }
    this.log.outsideTool(turn, asked, { output });
    if (this.strict && !this.traitsOf(asked)?.noExecutor) {
      this.violation(
        `the model asked for ${asked.qualifiedName}, and a result came back, but no call of ${asked.qualifiedName} reached tooltrace: is its executor among the session's tools?`,
        turn,
      );
    }
  }

  /** What the session was told about the tool a model call asked for, by its qualified name or else its bare one. */
  private traitsOf(asked: AskedCall): ToolTraits | undefined {
    return this.directory.names.get(asked.qualifiedName) ?? this.directory.names.get(asked.name);
  }
}
