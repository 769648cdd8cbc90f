import { qualify } from "../trace/paths.js";
import type { MockModelRequest, MockModelToolResult } from "../model/types.js";
import type { ModelCall } from "../trace/types.js";

/** A tool call the model asked for in a traced reply, until a call reaches the chain or the agent answers it. */
export interface AskedCall {
  readonly id: string;
  readonly name: string;
  readonly qualifiedName: string;
  readonly path: readonly string[];
  readonly input: unknown;
  readonly turnIndex: number;
}

/**
 * Keeps the tool calls the model asked for and pairs each with what became of it: a call that reached the
 * chain claims it; a result in a later request that no call produced means the agent answered it itself
 * (refused invalid input, a denied approval, a tool outside the session).
 */
export class AskedCalls {
  private open: AskedCall[] = [];

  /** Remembers the tool calls of a model reply, but those `reached` says already reached the chain. */
  noteReply(call: ModelCall, reached: (asked: AskedCall) => boolean = () => false): void {
    for (const asked of call.reply.toolCalls) {
      const entry: AskedCall = {
        id: asked.id,
        name: asked.name,
        qualifiedName: qualify(asked.name, call.path),
        path: call.path,
        input: asked.input,
        turnIndex: call.turnIndex,
      };
      if (!reached(entry)) this.open.push(entry);
    }
  }

  /**
   * A tool call reached the chain: it claims the matching asked call (by id when the framework passed one,
   * else the first open one of the same tool) and returns it.
   */
  claim(qualifiedName: string, tool: string, callId: string | undefined, modelName?: string): AskedCall | undefined {
    if (this.open.length === 0) return undefined;
    let index: number;
    if (callId !== undefined) {
      index = this.open.findIndex((asked) => asked.id === callId && asked.name === tool);
      if (index === -1) index = this.open.findIndex((asked) => asked.id === callId);
    } else {
      index = this.open.findIndex((asked) => asked.qualifiedName === qualifiedName);
      if (index === -1) index = this.open.findIndex((asked) => asked.name === tool);
      // A tool the session names otherwise than the model does (an MCP tool, `tasks/list_tasks`).
      if (index === -1 && modelName !== undefined) index = this.open.findIndex((asked) => asked.name === modelName);
    }
    if (index === -1) return undefined;
    return this.open.splice(index, 1)[0];
  }

  /** The open asked calls that a request's tool results answer: the agent answered them without the chain. */
  answeredIn(request: MockModelRequest): { asked: AskedCall; result: MockModelToolResult }[] {
    if (this.open.length === 0 || request.toolResults.length === 0) return [];
    const results = new Map(request.toolResults.map((result) => [result.id, result]));
    const answered: { asked: AskedCall; result: MockModelToolResult }[] = [];
    this.open = this.open.filter((asked) => {
      const result = results.get(asked.id);
      if (result === undefined || (result.name !== "" && result.name !== asked.name)) return true;
      answered.push({ asked, result });
      return false;
    });
    return answered;
  }

  /** Takes the open asked calls of a turn that `keep` does not hold back (a call awaiting approval stays open). */
  takeUnanswered(turnIndex: number, keep: (asked: AskedCall) => boolean): AskedCall[] {
    const taken: AskedCall[] = [];
    this.open = this.open.filter((asked) => {
      if (asked.turnIndex !== turnIndex || keep(asked)) return true;
      taken.push(asked);
      return false;
    });
    return taken;
  }
}
