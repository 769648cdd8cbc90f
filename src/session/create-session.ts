import { userCallSite } from "../call-site.js";
import { StubConfigError, TooltraceError } from "../errors.js";
import { bindTools, type BoundTools } from "../intercept/bind-tools.js";
import { currentCallContext, runInCallContext, type CallContext, type ToolCallHost, type ToolIdentity } from "../intercept/call-context.js";
import { runToolCallChain, type ToolCallContext, type ToolCallStep } from "../middleware/tool-call.js";
import { createRuleSet, type RuleSet } from "../stubs/rule-set.js";
import { ToolCallRecord, TurnRecord } from "../trace/records.js";
import type { ToolCall, Turn } from "../trace/types.js";
import { currentScope, type SessionReport } from "./scope.js";
import { stubStep, strictStep } from "./stub-step.js";
import type { AgentReply, SendOptions, Session, SessionOptions, UnusedRulesPolicy } from "./types.js";

/** The most tool calls one session records. */
export const MAX_CALLS_PER_SESSION = 10_000;

let sessionCounter = 0;

/**
 * Creates a session over an agent: validates and compiles the stubs (throwing a `StubConfigError` before
 * any call), patches the tools in place, and registers the session with the running test so the plugin
 * restores the tools and checks unused rules when the test ends.
 *
 * @example
 * ```ts
 * const session = createSession({ agent, tools, stubs: [{ id: "tasks", tool: "list_tasks", outcome: { response: { tasks: [] } } }] });
 * const turn = await session.send("What tasks do I have?");
 * expect(turn).toHaveCalledTool("list_tasks", { count: 1 });
 * ```
 */
export function createSession<TMessage = unknown>(options: SessionOptions<TMessage>): Session<TMessage> {
  let session: SessionImpl<TMessage>;
  try {
    session = new SessionImpl(options);
  } catch (error) {
    const site = error instanceof StubConfigError ? userCallSite() : undefined;
    if (site !== undefined) (error as StubConfigError).message += `\n  Session created at ${site}`;
    throw error;
  }
  currentScope()?.sessions.add(session);
  return session;
}

class SessionImpl<TMessage> implements Session<TMessage>, ToolCallHost {
  readonly name: string;
  readonly strict: boolean;
  readonly unusedRules: UnusedRulesPolicy | undefined;
  readonly turns: TurnRecord[] = [];
  readonly violations: string[] = [];
  private readonly historyList: TMessage[];
  private readonly rules: RuleSet;
  private readonly bound: BoundTools;
  private readonly steps: readonly ToolCallStep[];
  private readonly agent: SessionOptions<TMessage>["agent"];
  private callCount = 0;
  private closed = false;

  constructor(options: SessionOptions<TMessage>) {
    if (typeof options.agent !== "function") {
      throw new TypeError("[tooltrace] createSession needs `agent`: a function (message, { history, signal }) => reply.");
    }
    this.name = options.name ?? `session ${++sessionCounter}`;
    this.strict = options.strict === true;
    this.unusedRules = options.unusedRules;
    this.agent = options.agent;
    this.historyList = [...(options.history ?? [])];
    this.bound = bindTools(this, options.tools, options.subagents);
    try {
      const knownTools = options.tools === undefined && options.subagents === undefined ? undefined : this.bound.names;
      this.rules = createRuleSet(options.stubs, knownTools ? { knownTools } : {});
    } catch (error) {
      this.bound.unbind();
      throw error;
    }
    const violation = (message: string) => this.recordViolation(message);
    this.steps = this.strict ? [stubStep(this.rules), strictStep(violation)] : [stubStep(this.rules)];
  }

  get history(): readonly TMessage[] {
    return this.historyList;
  }

  get toolCalls(): readonly ToolCall[] {
    return this.turns.flatMap((turn) => turn.toolCalls);
  }

  async send(message: string, options: SendOptions = {}): Promise<Turn> {
    if (this.closed) throw new TooltraceError(`${this.name} is closed; create a new session to send more messages.`);
    if (typeof message !== "string") throw new TypeError("[tooltrace] session.send(message) takes the user message as a string.");
    const turn = new TurnRecord(this.turns.length, message);
    this.turns.push(turn);
    const controller = new AbortController();
    const abort = (reason: unknown) => controller.abort(reason);
    const external = options.signal;
    const onExternalAbort = () => abort(external?.reason);
    if (external?.aborted) onExternalAbort();
    external?.addEventListener("abort", onExternalAbort, { once: true });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => abort(new TooltraceError(`turn ${turn.index} timed out after ${options.timeoutMs} ms.`)), options.timeoutMs);
    try {
      const history = [...this.historyList];
      const reply = await runInCallContext({ host: this, turn, recordModelCall: (call) => turn.modelCalls.push(call), recordViolation: (message) => this.recordViolation(message) }, () =>
        raceAbort(Promise.resolve().then(() => this.agent(message, { history, signal: controller.signal, turn })), controller.signal),
      );
      this.applyReply(turn, message, reply);
      turn.finish("completed");
    } catch (error) {
      turn.finish("failed", error);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      external?.removeEventListener("abort", onExternalAbort);
    }
    return turn;
  }

  private applyReply(turn: TurnRecord, message: string, reply: AgentReply<TMessage>): void {
    if (typeof reply === "string") {
      turn.text = reply;
      turn.assistantTexts = textsOf(turn, reply);
      this.historyList.push({ role: "user", content: message } as TMessage, { role: "assistant", content: reply } as TMessage);
      return;
    }
    if (reply === null || typeof reply !== "object" || typeof reply.text !== "string") {
      throw new TooltraceError(`the agent returned ${String(reply)}; an agent returns the reply text or { text, messages? }.`);
    }
    turn.text = reply.text;
    turn.assistantTexts = [...(reply.assistantTexts ?? textsOf(turn, reply.text))];
    if (reply.usage) {
      const inputTokens = reply.usage.inputTokens ?? 0;
      const outputTokens = reply.usage.outputTokens ?? 0;
      turn.reportUsage({ inputTokens, outputTokens, totalTokens: reply.usage.totalTokens ?? inputTokens + outputTokens });
    }
    if (reply.messages) this.historyList.push(...reply.messages);
    else this.historyList.push({ role: "user", content: message } as TMessage, { role: "assistant", content: reply.text } as TMessage);
  }

  callTool(callContext: CallContext, identity: ToolIdentity, original: (...args: unknown[]) => unknown, thisArg: unknown, args: unknown[]): unknown {
    const turn = callContext.turn as TurnRecord;
    if (this.callCount >= MAX_CALLS_PER_SESSION) {
      const message = `${this.name} made more than ${MAX_CALLS_PER_SESSION} tool calls; a session records at most ${MAX_CALLS_PER_SESSION}. Is the agent looping? Split long scenarios into several sessions.`;
      if (this.callCount === MAX_CALLS_PER_SESSION) this.recordViolation(message);
      this.callCount += 1;
      throw new TooltraceError(message);
    }
    this.callCount += 1;
    const input = args[0];
    const call = new ToolCallRecord(callIdFrom(args[1]) ?? `call_${this.callCount}`, identity.tool, identity.path, identity.qualifiedName, input, turn.index);
    turn.toolCalls.push(call);
    const context: ToolCallContext = { tool: identity.tool, path: identity.path, qualifiedName: identity.qualifiedName, input, call, turn };
    const terminal = (finalInput: unknown) => {
      call.answeredBy ??= { kind: "real" };
      call.input = finalInput;
      return original.apply(thisArg, finalInput === input ? args : [finalInput, ...args.slice(1)]);
    };
    let result: unknown;
    try {
      result = runToolCallChain(this.steps, context, terminal);
    } catch (error) {
      call.fail(error, call.status === "rejected" ? "rejected" : "failed");
      throw error;
    }
    if (isPromiseLike(result)) {
      return Promise.resolve(result).then(
        (output) => {
          call.complete(output);
          return output;
        },
        (error: unknown) => {
          call.fail(error);
          throw error;
        },
      );
    }
    call.complete(result);
    return result;
  }

  private recordViolation(message: string): void {
    this.violations.push(message);
    (currentCallContext()?.turn as TurnRecord | undefined)?.violations.push(message);
  }

  takeViolations(): string[] {
    return this.violations.splice(0);
  }

  ruleUsage(): ReadonlyMap<string, number> {
    return this.rules.usage();
  }

  unusedRuleIds(): string[] {
    return this.rules.unusedRuleIds();
  }

  close(): SessionReport {
    if (!this.closed) {
      this.closed = true;
      this.bound.unbind();
    }
    return {
      name: this.name,
      unusedRuleIds: this.rules.unusedRuleIds(),
      violations: [...this.violations],
      turns: this.turns.map((turn) => turn.toJSON()),
      ...(this.unusedRules ? { unusedRules: this.unusedRules } : {}),
    };
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/** Assistant texts the agent did not list itself: the traced model replies' texts, then the final text. */
function textsOf(turn: TurnRecord, final: string): string[] {
  const texts = turn.modelCalls.map((call) => call.reply.text).filter((text) => text !== "");
  if (final !== "" && texts.at(-1) !== final) texts.push(final);
  return texts;
}

function callIdFrom(options: unknown): string | undefined {
  if (options !== null && typeof options === "object" && "toolCallId" in options) {
    const id = (options as { toolCallId: unknown }).toolCallId;
    if (typeof id === "string" && id !== "") return id;
  }
  return undefined;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
