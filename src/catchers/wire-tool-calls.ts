import type { TurnContext } from "../pipeline/caught.js";
import { settle } from "../base/settle.js";
import type { Terminal } from "../pipeline/types.js";
import { requestView } from "../model/request-view.js";
import type { MockModelMessage, MockModelRequest, MockModelToolResult, ResolvedReply } from "../model/types.js";
import { message } from "../exits/errors.js";
import type { HiddenRoundEdit, WireEdits } from "../wire/request-edits.js";
import type { Outcome, WireCall } from "./wire-call.js";
import { editsOf } from "./wire-edits.js";

/** A round the agent never saw (every call answered here): inserted after the agent's first `at` messages. */
interface HiddenRound {
  readonly at: number;
  readonly messages: readonly MockModelMessage[];
  /** The same round for the real model: put back after the client's first `edit.at` items of its own request. */
  readonly edit: HiddenRoundEdit;
}

/** The most rounds the model may answer in a row without the agent seeing a tool call. */
const MAX_HIDDEN_ROUNDS = 25;

const REAL = { kind: "real" } as const;

/**
 * Tool calls of an agent in another process (a CLI), caught where the model's reply crosses the wire: each
 * call goes through the session's chain (middleware, stubs, strict) before the agent sees it.
 *
 * - A call that reaches the end of the chain is sent to the agent with the input the chain gave it; the
 *   agent's result, in its next request, goes back into the chain, and the model sees what the chain made
 *   of it (a middleware's transformed result).
 * - A call answered in the chain (a stub, a middleware, strict mode's refusal) is never sent: the agent does
 *   not see it, and the model is asked again at once with the call and its answer appended. In every later
 *   request the agent sends, those rounds are put back, so the model sees one coherent conversation: the
 *   original tool names and inputs, and exactly the results the chain gave.
 */
export class WireToolCalls {
  private readonly calls = new Map<string, WireCall>();
  /** Rounds the agent never saw, per conversation: a CLI may hold side conversations (a subagent, a title). */
  private readonly rounds = new Map<string, HiddenRound[]>();

  /** The request as the model must see it: the agent's results delivered, and what the agent never saw put back. */
  async prepare(view: MockModelRequest): Promise<MockModelRequest> {
    const delivered: WireCall[] = [];
    for (const result of view.toolResults) {
      const call = this.calls.get(result.id);
      if (call === undefined || call.deliver === undefined || call.delivered) continue;
      call.delivered = true;
      call.agentResult = { output: result.output, isError: result.isError };
      call.deliver(call.agentResult);
      delivered.push(call);
    }
    await Promise.all(delivered.map((call) => call.outcome));
    if (this.calls.size === 0) return view;
    return this.restore(view, this.roundsOf(view));
  }

  /**
   * Runs each tool call of `reply` through the chain; returns the reply the agent gets (only the calls that
   * reached the end of the chain, with the input it gave them), asking the model again (`ask`) while every
   * call of a reply was answered in the chain. `sent` is the request as the agent sent it, `view` as the
   * model saw it, and `sentLength` the number of items of the agent's own request (where a round the agent
   * never sees goes, for the real model).
   */
  async settle(
    context: TurnContext,
    sent: MockModelRequest,
    view: MockModelRequest,
    reply: ResolvedReply,
    ask: (view: MockModelRequest) => Promise<ResolvedReply>,
    sentLength = 0,
  ): Promise<ResolvedReply> {
    let current = reply;
    let seen = view;
    for (let round = 0; ; round += 1) {
      if (current.toolCalls.length === 0) return current;
      const started = await Promise.all(current.toolCalls.map((call) => this.start(context, call.id, call.name, call.input)));
      const visible = current.toolCalls.flatMap((call, i) => (started[i]?.reached ? [{ ...call, input: started[i].input }] : []));
      if (visible.length > 0) {
        if (visible.length < current.toolCalls.length) {
          const group = current.toolCalls.map((call) => call.id);
          for (const id of group) {
            const known = this.calls.get(id);
            if (known !== undefined) known.group = group;
          }
        }
        return { ...current, toolCalls: visible };
      }
      if (round >= MAX_HIDDEN_ROUNDS) {
        throw new Error(
          message(
            `the model made tool calls ${MAX_HIDDEN_ROUNDS} times in a row that tooltrace answered without the agent (stubs, middleware, strict mode); is the mock model looping?`,
          ),
        );
      }
      const answered = await Promise.all(current.toolCalls.map((call) => this.calls.get(call.id)?.outcome));
      const results: MockModelToolResult[] = current.toolCalls.map((call, i) => ({
        id: call.id,
        name: call.name,
        output: answered[i]?.output,
        isError: answered[i]?.isError ?? false,
      }));
      const messages: MockModelMessage[] = [
        {
          role: "assistant",
          text: current.text,
          toolCalls: current.toolCalls.map((call) => ({ id: call.id, name: call.name, input: call.input })),
        },
        { role: "tool", text: resultsText(results), toolResults: results },
      ];
      // Placed by the agent's own conversation (`sent`), which lacks every round it never saw.
      const edit: HiddenRoundEdit = { at: sentLength, text: current.text, calls: messages[0]?.toolCalls ?? [], results };
      this.roundsOf(sent).push({ at: sent.messages.length, messages, edit });
      seen = requestView([...seen.messages, ...messages], seen.tools, [...seen.toolResults, ...results]);
      current = await ask(seen);
    }
  }

  /**
   * The chain's changes to the agent's conversation `view` (the inputs the model gave where the agent got
   * others, the chain's results where the agent sent others, the calls and rounds it never saw), for its
   * request to go on to the real model.
   */
  edits(view: MockModelRequest): WireEdits {
    return editsOf(
      this.calls,
      this.roundsOf(view).map((round) => round.edit),
      view,
    );
  }

  /**
   * The agent ended (it finished, crashed or was killed): every call sent to it whose result never came back
   * fails with `reason`, so no record stays pending and no middleware waits on its handler for ever.
   */
  abandon(reason: string): void {
    for (const call of this.calls.values()) {
      if (call.deliver === undefined || call.delivered) continue;
      call.delivered = true;
      call.deliver({ output: reason, isError: true });
    }
  }

  /** Starts one call's chain; resolves when it reached the agent (with the input to send) or was answered. */
  private start(context: TurnContext, id: string, name: string, input: unknown): Promise<{ reached: boolean; input: unknown }> {
    let reached: (input: unknown) => void = () => undefined;
    const reachedAgent = new Promise<{ reached: boolean; input: unknown }>(
      (resolve) => (reached = (sentInput) => resolve({ reached: true, input: sentInput })),
    );
    const call: Partial<WireCall> & { delivered: boolean } = { id, name, input, delivered: false };
    const terminal: Terminal = {
      source: REAL,
      // A tool of an MCP server the session serves is answered there, from the rules: it is not live.
      live: !context.pipeline.servedOverMcp.has(name),
      run: (sentInput) =>
        new Promise<unknown>((resolve, reject) => {
          call.deliver = (result) =>
            result.isError
              ? reject(new Error(typeof result.output === "string" ? result.output : JSON.stringify(result.output)))
              : resolve(result.output);
          call.sentInput = sentInput;
          reached(sentInput);
        }),
    };
    const outcome = Promise.resolve(
      settle(
        () =>
          context.pipeline.tool(
            context,
            { kind: "tool", executor: { label: name }, input, callId: id, toolName: name, wire: true },
            terminal,
          ),
        (output): Outcome => ({ output, isError: false }),
        (error): Outcome => ({ output: error instanceof Error ? error.message : String(error), isError: true }),
      ),
    );
    const wire = Object.assign(call, { outcome }) as WireCall;
    void outcome.then((settled) => (wire.settled = settled));
    this.calls.set(id, wire);
    return Promise.race([reachedAgent, outcome.then(() => ({ reached: false, input }))]);
  }

  /**
   * The hidden rounds of the conversation `view` belongs to, known by its first user message and the tools
   * it offers: both stay the same as a conversation grows, and differ between a CLI's main conversation and
   * its side ones.
   */
  private roundsOf(view: MockModelRequest): HiddenRound[] {
    const first = view.messages.find((message) => message.role === "user")?.text ?? "";
    const key = JSON.stringify([first, view.tools.map((tool) => tool.name).sort()]);
    let rounds = this.rounds.get(key);
    if (rounds === undefined) {
      rounds = [];
      this.rounds.set(key, rounds);
    }
    return rounds;
  }

  /** The agent's view with the model's own inputs, the chain's results, and the calls the agent never saw. */
  private restore(view: MockModelRequest, hidden: readonly HiddenRound[]): MockModelRequest {
    const messages: MockModelMessage[] = [];
    const rounds = [...hidden].sort((a, b) => a.at - b.at);
    view.messages.forEach((message, index) => {
      for (const round of rounds) if (round.at === index) messages.push(...round.messages);
      messages.push(this.restoreMessage(message));
    });
    for (const round of rounds) if (round.at >= view.messages.length) messages.push(...round.messages);
    return requestView(
      messages,
      view.tools,
      messages.flatMap((message) => message.toolResults ?? []),
    );
  }

  private restoreMessage(message: MockModelMessage): MockModelMessage {
    if (message.toolCalls?.some((call) => this.calls.has(call.id))) {
      const toolCalls = this.inGroups(
        message.toolCalls,
        (call, known) => ({ ...call, input: known?.input ?? call.input }),
        (hidden) => ({ id: hidden.id, name: hidden.name, input: hidden.input }),
      );
      return { ...message, toolCalls };
    }
    if (message.toolResults?.some((result) => this.calls.has(result.id))) {
      const toolResults = this.inGroups(
        message.toolResults,
        (result, known) => (known?.settled ? { ...result, output: known.settled.output, isError: known.settled.isError } : result),
        (hidden) => ({ id: hidden.id, name: hidden.name, output: hidden.settled?.output, isError: hidden.settled?.isError ?? false }),
      );
      return { ...message, text: resultsText(toolResults), toolResults };
    }
    return message;
  }

  /**
   * The agent's items (calls or results) as the model must see them: each mapped by `seen`, and where an item
   * belongs to a reply some of whose calls the agent never got, that reply's items in their original order.
   */
  private inGroups<T extends { readonly id: string }>(
    items: readonly T[],
    seen: (item: T, known: WireCall | undefined) => T,
    hidden: (call: WireCall) => T,
  ): T[] {
    const out: T[] = [];
    const byId = new Map(items.map((item) => [item.id, item]));
    const placed = new Set<readonly string[]>();
    for (const item of items) {
      const known = this.calls.get(item.id);
      if (known?.group === undefined) {
        out.push(seen(item, known));
        continue;
      }
      if (placed.has(known.group)) continue;
      placed.add(known.group);
      for (const id of known.group) {
        const own = byId.get(id);
        const call = this.calls.get(id);
        if (own !== undefined) out.push(seen(own, call));
        else if (call !== undefined && call.deliver === undefined) out.push(hidden(call));
      }
    }
    return out;
  }
}

function resultsText(results: readonly MockModelToolResult[]): string {
  return results.map((result) => (typeof result.output === "string" ? result.output : JSON.stringify(result.output))).join("\n");
}
