import type { Upstream } from "../wire/upstream.js";
import type { ToolsInput } from "../catchers/bind-tools.js";
import type { CassetteOptions } from "../cassettes/types.js";
import type { Fault } from "../faults/types.js";
import type { HttpMock } from "../http-mocks/types.js";
import type { Middleware } from "../middleware/types.js";
import type { Step } from "../pipeline/types.js";
import type { MockModelInput } from "../model/types.js";
import type { ToolStub } from "../stubs/types.js";
import type { Prices } from "../trace/cost.js";
import type { Interaction, ToolCall, Turn, TurnsHolder, Usage } from "../trace/types.js";
import type { SessionReport } from "../lifecycle/scope.js";
import type { UnusedRulesPolicy } from "../lifecycle/test-report.js";

/** What an agent function is given besides the user message. */
export interface AgentContext<TMessage> {
  /** The conversation so far, in the agent's own message format. */
  readonly history: readonly TMessage[];
  /** Aborted when the turn is cancelled or times out. */
  readonly signal: AbortSignal;
  /** The turn being recorded. */
  readonly turn: Turn;
  /** The session's stub rules as given: for an agent that applies them in another process (`remoteAgent`). */
  readonly stubs: readonly ToolStub[];
  /** Whether the session is strict: for the same kind of agent, which refuses unmatched calls where they run. */
  readonly strict: boolean;
}

/** Calls an agent's own recorder made for its turn (a deployed agent's server): see `AgentReply.recorded`. */
export interface RecordedCalls {
  /**
   * The records in the order they started, in their JSON form (`interactionToJson`), numbered (`seq`,
   * `parentSeq`) and clocked (`start`, `end`) by the recorder.
   */
  readonly interactions: readonly Interaction[];
  /** Problems the recorder found (strict mode refused a call): each fails the test, as the session's own do. */
  readonly violations?: readonly string[];
  /** When the recorder's clock began (its records' `start` counts from there), in ms after the turn started. Default 0. */
  readonly startedAfterMs?: number;
}

/** An agent's answer: the reply text, or the text with the turn's new messages and usage. */
export type AgentReply<TMessage> =
  | string
  | {
      /** The final reply text. */
      readonly text: string;
      /** Every piece of assistant text in the turn; defaults to `[text]`. */
      readonly assistantTexts?: readonly string[];
      /** The messages this turn added to the conversation (user message included), in the agent's format. */
      readonly messages?: readonly TMessage[];
      /** Token usage the agent saw; ignored when the mock model traced the model calls itself. */
      readonly usage?: Partial<Usage>;
      /**
       * Calls recorded where the agent ran (a deployed agent's server, see `remoteAgent`): written into the
       * turn as they are, numbered after its own; the stub rules they used count as used.
       */
      readonly recorded?: RecordedCalls;
    };

/** Any function that answers a user message. */
export type Agent<TMessage = unknown> = (
  message: string,
  context: AgentContext<TMessage>,
) => AgentReply<TMessage> | Promise<AgentReply<TMessage>>;

export type { UnusedRulesPolicy };

/** Options of {@link createSession}. */
export interface SessionOptions<TMessage = unknown> {
  /** The agent under test. */
  readonly agent: Agent<TMessage>;
  /**
   * The agent's live tools, as a record keyed by tool name: AI SDK tools (their `execute` is patched) or
   * plain functions (patched on the record). Patched in place while the session is open. Anything tooltrace
   * cannot catch (an array, a LangChain or Agents SDK tool object) is refused here, before any call.
   * Required with `stubs` or `strict`; pass `{}` for an agent without tools.
   */
  readonly tools?: ToolsInput;
  /**
   * Subagents' tools by path (`researcher`, `researcher/assistant`), for rules such as `researcher/list_tasks`.
   * A call is named by the path active when it is made (see `inSubagent`); an executor given at one path only
   * is named by that path.
   */
  readonly subagents?: { readonly [path: string]: ToolsInput };
  /** Stub rules, tried top to bottom; first match wins. */
  readonly stubs?: readonly ToolStub[];
  /**
   * HTTP mocks for the requests the agent and its tools make during a turn (after those set by
   * `useHttpMocks`, the plugin's `http`): first match wins, outcomes in turn. Needs tooltrace's MSW server
   * (`tooltrace({ llm: true })` or `startLlmServer()`), which catches the requests.
   */
  readonly http?: readonly HttpMock[];
  /**
   * Record the real tools' results and HTTP exchanges, or replay them (see `CassetteOptions`). Stubs and
   * HTTP mocks win over the cassette; what they answer is never recorded. A recording session lets the real
   * thing run even when strict.
   */
  readonly cassette?: CassetteOptions;
  /**
   * When true, nothing unanswered goes live: a tool call no rule matches is refused (the real tool never
   * runs), an HTTP request a turn makes through tooltrace's MSW server is refused, and a tool call the model
   * asked for that never reached tooltrace is reported. Each fails the test even if the agent recovers.
   * Below every catcher, connections (TCP, TLS, UDP), DNS queries, worker threads and child processes are
   * refused too, during the session's turns and, for the network, whenever it is open (see `allowHosts`).
   */
  readonly strict?: boolean;
  /**
   * Hosts a strict session lets the agent reach past tooltrace's catchers, and HTTP it lets go out:
   * `"api.example.com"`, `"db.internal:5432"`, `"*.corp.example"`. Loopback connections to a server this
   * process listens on (the test's own fake services) are always allowed. Added to the plugin's `allowHosts`.
   */
  readonly allowHosts?: readonly string[];
  /**
   * Worker threads and child processes a strict session lets its turns start (tooltrace cannot see what
   * they send): `true` for any, or child processes by command name (`["git"]`). Default: none.
   */
  readonly allowProcesses?: boolean | readonly string[];
  /**
   * Unix-domain sockets a strict session lets its turns connect to (a local database, the Docker socket), by
   * path; one ending in `/` allows every socket under it. A socket a server of this process listens on is
   * always allowed. Default: none. The hermetic run leaves them open (they stay on the machine).
   */
  readonly allowSockets?: readonly string[];
  /**
   * Tools a strict session lets run for real, by name (`["send_email"]`): no rule needs to answer them, and the
   * rest of strict mode holds. Honoured under `TOOLTRACE_STRICT=1` too, with the run's
   * `TOOLTRACE_STRICT_ALLOW_TOOLS` (comma-separated names).
   */
  readonly allowTools?: readonly string[];
  /**
   * Steps that see every interaction (tool, model, HTTP) before the stubs do, Koa-style: answer it, rewrite
   * its input with `next(input)`, or transform what `next()` returned. The trace records who changed what.
   * The building block of middleware.
   */
  readonly steps?: readonly Step[];
  /**
   * Middleware around this session's turns, after those set by `useMiddleware` (the plugin's `middleware`):
   * `beforeEval` may rewrite the user message, `onToolCall` wraps each tool call (answer it, rewrite its
   * input, transform its result), `afterEval` grades the run into `turn.results[name]`.
   */
  readonly middleware?: readonly Middleware[];
  /**
   * The mock model that answers this session's LLM requests on the wire (anything `mockModel()` accepts),
   * instead of the wire server's own: one wire server (`tooltrace({ llm: true })`, `startLlmServer()`) can
   * serve every test, each session scripting its model.
   */
  readonly llm?: MockModelInput;
  /**
   * Where this session's LLM requests on the wire go instead of a mock model: the real model. `true` sends
   * each request on to the URL the client called (for a CLI agent, the provider's own API); a base URL as an
   * SDK takes one (`"https://gateway.example.com/v1"`, a local fake) gets the path the client's SDK built,
   * joined once (not `/v1/v1/...`). Such calls are
   * live: a cassette records them (`TOOLTRACE_CASSETTE=record`) and replays them in CI, and strict mode
   * refuses them. Not with `llm`.
   */
  readonly upstream?: Upstream;
  /**
   * What model tokens cost, in USD per million, by model id: `{ "gpt-4o": { input: 2.5, output: 10 } }`. Over
   * the plugin's `prices` and the shipped table (`MODEL_PRICES`); each call a real model answered gets its
   * `costUsd` from them.
   */
  readonly prices?: Prices;
  /**
   * Faults injected on purpose into this session's model calls: the provider's 429 with `Retry-After`, a 5xx,
   * Anthropic's 529, a malformed body, a stream cut after a few events, a slow answer. Each fires on the
   * calls it names or by a probability drawn from `seed`; the client meets it in its provider's own shape
   * (its SDK retries as it would in production), and the trace records it as answered by the fault.
   *
   * @example
   * ```ts
   * faults: [{ fault: "rate_limit", calls: [1] }]
   * ```
   */
  readonly faults?: readonly Fault[];
  /** Overrides the plugin's policy for unused rules in this session. */
  readonly unusedRules?: UnusedRulesPolicy;
  /**
   * The run's seed: the mock model's responders get it with a random generator seeded by it
   * (`(request, { seed, random }) => ...`), so the same (test, seed) always gives the same run. `variants()` sets it.
   */
  readonly seed?: number;
  /** A name for messages; defaults to `session 1`, `session 2`, ... */
  readonly name?: string;
  /** Messages the conversation starts with. */
  readonly history?: readonly TMessage[];
  /**
   * MCP servers this session serves (`await mcpServer({ tools })`): their tools are the session's, every
   * `tools/call` an MCP host sends them is answered by its stub rules (closed-world) and kept in its trace.
   */
  readonly mcp?: ServedMcp | readonly ServedMcp[];
}

/** What a session needs of an MCP server it serves (`mcpServer()` makes one). */
export interface ServedMcp {
  /** The names of the tools it lists. */
  readonly toolNames: readonly string[];
  /** Binds the server to the session whose turns its calls belong to. */
  use(session: Session): void;
}

/** Options of one {@link Session.send}. */
export interface SendOptions {
  /** Cancels the turn; the agent sees it on `context.signal`. */
  readonly signal?: AbortSignal;
  /** Fails the turn after this many milliseconds. */
  readonly timeoutMs?: number;
}

/** A conversation with the agent under test, recorded turn by turn. */
export interface Session<TMessage = unknown> extends TurnsHolder {
  readonly name: string;
  readonly turns: readonly Turn[];
  /** Every tool call of every turn, in order. */
  readonly toolCalls: readonly ToolCall[];
  readonly history: readonly TMessage[];
  readonly strict: boolean;
  readonly unusedRules: UnusedRulesPolicy | undefined;
  /** Problems that fail the test even when the agent recovered (strict mode, call limit). */
  readonly violations: readonly string[];
  /** Every interaction of every turn (tool calls, model calls, HTTP exchanges), in the order they started. */
  readonly interactions: readonly Interaction[];
  /**
   * A path prefix that attributes requests arriving on a socket to this session's running turn:
   * give an agent in another process the base URL `http://127.0.0.1:PORT${session.route}/v1` of a server that
   * serves `createLlmAnswer().answer`.
   */
  readonly route: string;
  /**
   * Sends a user message and records the turn. An agent that throws gives a failed turn, not a rejection.
   * One turn at a time: a second `send` while a turn runs is refused.
   */
  send(message: string, options?: SendOptions): Promise<Turn>;
  /**
   * Returns the violations and clears them, so the after-test check does not fail the test. For tests
   * that exercise strict mode on purpose and assert on the violations themselves.
   */
  takeViolations(): string[];
  /** How many calls each rule has answered so far. */
  ruleUsage(): ReadonlyMap<string, number>;
  /** Ids of rules no call has used yet. */
  unusedRuleIds(): string[];
  /** Restores every patched tool. Idempotent; the plugin calls it after each test. */
  close(): SessionReport;
  [Symbol.dispose](): void;
}
