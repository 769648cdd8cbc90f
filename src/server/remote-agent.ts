import { excerpt } from "../exits/excerpt.js";
import { PREFIX, TooltraceError, usageError } from "../exits/errors.js";
import { markWireAgent } from "../catchers/wire-agent.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { currentTurnContext, outsideTurnContext } from "../pipeline/turn-context.js";
import { withRecordedCalls } from "../session/adopt-recorded.js";
import { withAgentHosts } from "../session/agent-hosts.js";
import type { Agent, AgentContext, RecordedCalls } from "../session/types.js";
import { TRACE_FORMAT_VERSION } from "../trace/turn-json.js";
import type { Interaction } from "../trace/types.js";
import { type RemoteMessage, type RemoteReply, readReply } from "./remote-reply.js";
import { positionedRules, withOffsets } from "./rule-positions.js";
import {
  DEFAULT_TOKEN_LIFETIME_MS,
  GATE_HEADER,
  type Grant,
  MAX_TOKEN_LENGTH,
  MAX_TOKEN_LIFETIME_MS,
  MIN_SECRET_LENGTH,
  randomId,
  SECRET_VARIABLE,
  signToken,
  TOKEN_HEADER,
} from "./token.js";

/** Options of {@link remoteAgent}. */
export interface RemoteAgentOptions {
  /** The agent's route: `http://127.0.0.1:4321/chat`, `https://my-app-git-branch.vercel.app/api/chat`. */
  readonly url: string;
  /** The server's secret (its `TOOLTRACE_SECRET`), at least 32 characters. Default: `process.env.TOOLTRACE_SECRET`. */
  readonly secret?: string | undefined;
  /** The route's method. Default `POST`. */
  readonly method?: string;
  /** More headers on every request: a deployment's protection bypass, an API key. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The JSON body of one turn's request. Default `{ message, history }`. */
  readonly body?: (message: string, history: readonly RemoteMessage[]) => unknown;
  /** Reads the route's reply. Default: JSON `{ text, messages? }`, an AI SDK UI message stream, or plain text. */
  readonly reply?: (response: Response) => Promise<string | RemoteReply>;
  /** How long each token stays valid, in ms. Default 60 s; at most 5 minutes. */
  readonly tokenLifetimeMs?: number;
}

const sessionIds = new WeakMap<Pipeline, string>();

/**
 * An agent served over HTTP by another process or a deployment, whose server wraps its handler with
 * `tooltraceServer` (from `tooltrace/server`). Each turn signs a short-lived token holding the session's
 * stub rules and strict flag, posts the user message with it, reads the reply, then fetches the calls the
 * server recorded for that request into the turn: `turn.toolCalls` and the matchers work as for a local agent.
 * The server decides every outcome from the rules it received; it never calls back.
 *
 * @example
 * ```ts
 * const session = createSession({
 *   agent: remoteAgent({ url: "http://127.0.0.1:4321/chat" }),
 *   stubs: [{ id: "tasks", tool: "list_tasks", outcome: { response: { tasks: [] } } }],
 *   strict: true,
 * });
 * const turn = await session.send("What tasks do I have?");
 * expect(turn).toHaveCalledTool("list_tasks");
 * ```
 */
export function remoteAgent(options: RemoteAgentOptions): Agent<RemoteMessage> {
  const settings = checkOptions(options);
  let probed: Promise<void> | undefined;
  const agent: Agent<RemoteMessage> = async (message, context) => {
    const turnContext = currentTurnContext();
    if (turnContext === undefined)
      throw new TooltraceError("remoteAgent runs only as a session's agent: createSession({ agent: remoteAgent({ url }), stubs }).");
    const { pipeline, turn } = turnContext;
    const sid = sessionIdOf(pipeline);
    const rules = positionedRules(context.stubs, pipeline.log.interactions);
    const startedAfterMs = pipeline.log.now() - turn.start;
    const exchange = async () => {
      probed ??= probe(settings, sid, context.signal).catch((error: unknown) => {
        probed = undefined;
        throw error;
      });
      await probed;
      const jti = randomId();
      const token = sign(settings, { purpose: "turn", sid, jti, strict: context.strict, stubs: rules.stubs });
      const body = JSON.stringify((options.body ?? defaultBody)(message, context.history));
      const response = await send(settings, token, body, context.signal);
      const fetchRecorded = async (): Promise<RecordedCalls> => {
        const calls = await send(settings, sign(settings, { purpose: "calls", sid, jti: randomId(), for: jti }), undefined, context.signal);
        const recorded = await recordedCalls(settings, calls);
        return { ...recorded, interactions: recorded.interactions.map((record) => withOffsets(record, rules.offsets)), startedAfterMs };
      };
      if (!response.ok) {
        const error = await failure(settings, response, "turn");
        // What the server did before it failed belongs to the failed turn: its calls, its violations.
        const recorded = response.headers.get(GATE_HEADER) === null ? await fetchRecorded().catch(() => undefined) : undefined;
        throw recorded === undefined ? error : withRecordedCalls(error, recorded);
      }
      const read = await (options.reply ?? readReply)(response);
      const reply: RemoteReply = typeof read === "string" ? { text: read } : read;
      return { text: reply.text, ...(reply.messages ? { messages: reply.messages } : {}), recorded: await fetchRecorded() };
    };
    // The agent's own requests are no calls of the turn's: outside its context, MSW does not record them.
    return outsideTurnContext(exchange);
  };
  return withAgentHosts(markWireAgent(agent), [settings.url.host]);
}

interface Settings {
  readonly url: URL;
  readonly secret: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly lifetimeMs: number;
}

function checkOptions(options: RemoteAgentOptions): Settings {
  if (options === null || typeof options !== "object") throw usageError("remoteAgent(options): pass { url, secret? }.");
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw usageError(`remoteAgent({ url }): ${JSON.stringify(String(options.url).slice(0, 200))} is not an absolute URL.`);
  }
  const secret = options.secret ?? process.env[SECRET_VARIABLE];
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw usageError(
      `remoteAgent needs the secret the agent's server has, at least ${MIN_SECRET_LENGTH} characters; ${secret ? "this one is shorter" : `${SECRET_VARIABLE} is not set`}.`,
      `set ${SECRET_VARIABLE} for the test run and the server alike (\`openssl rand -base64 32\`), or pass remoteAgent({ secret }).`,
    );
  }
  const lifetimeMs = options.tokenLifetimeMs ?? DEFAULT_TOKEN_LIFETIME_MS;
  if (!Number.isFinite(lifetimeMs) || lifetimeMs <= 0 || lifetimeMs > MAX_TOKEN_LIFETIME_MS)
    throw usageError(`remoteAgent({ tokenLifetimeMs }): between 1 and ${MAX_TOKEN_LIFETIME_MS} ms, got ${String(lifetimeMs)}.`);
  return { url, secret, method: options.method ?? "POST", headers: options.headers ?? {}, lifetimeMs };
}

type Unsigned<T> = T extends Grant ? Omit<T, "iat" | "exp"> : never;

function sign(settings: Settings, grant: Unsigned<Grant>): string {
  const iat = Date.now();
  const token = signToken(settings.secret, { ...grant, iat, exp: iat + settings.lifetimeMs } as Grant);
  if (token.length > MAX_TOKEN_LENGTH) {
    throw new TooltraceError(
      `the session's stub rules make a token of ${token.length} characters, and a server reads at most ${MAX_TOKEN_LENGTH} (it travels in a header).`,
      "keep the rules that go to a deployed agent small: short responses, fewer rules per session.",
    );
  }
  return token;
}

function send(settings: Settings, token: string, body: string | undefined, signal: AbortSignal): Promise<Response> {
  const headers = { ...settings.headers, [TOKEN_HEADER]: token, ...(body === undefined ? {} : { "content-type": "application/json" }) };
  return fetch(settings.url, { method: settings.method, headers, ...(body === undefined ? {} : { body }), signal });
}

/**
 * Before the first turn: a calls token for a request that never was. A gated server answers it itself (404,
 * marked); anything else means no gate is in front of the route, which would run the real tools unstubbed.
 */
async function probe(settings: Settings, sid: string, signal: AbortSignal): Promise<void> {
  const response = await send(settings, sign(settings, { purpose: "calls", sid, jti: randomId(), for: randomId() }), undefined, signal);
  const gated = response.headers.get(GATE_HEADER) !== null;
  if (gated && response.status !== 404) throw await failure(settings, response, "probe");
  // Read to its end, not cancelled: with MSW intercepting in this process, a cancelled body left the next request hanging.
  await response.text();
  if (gated) return;
  throw new TooltraceError(
    `${settings.url.href} does not answer as a tooltrace/server gate (it answered ${response.status} unmarked), so the session's stubs would not apply there and its real tools would run; no message was sent.`,
    `wrap the route's handler with tooltraceServer({ tools }) from tooltrace/server, and give the server ${SECRET_VARIABLE} (without it the gate is off).`,
  );
}

async function failure(settings: Settings, response: Response, what: "turn" | "calls" | "probe"): Promise<TooltraceError> {
  const text = await response.text().catch(() => "");
  if (response.headers.get(GATE_HEADER) === null)
    return new TooltraceError(`${settings.url.href} answered the ${what} request with ${response.status}: ${excerpt(text, 500)}`);
  const said = (() => {
    try {
      const error = String((JSON.parse(text) as { error?: unknown }).error);
      return error.startsWith(`${PREFIX} `) ? error.slice(PREFIX.length + 1) : error;
    } catch {
      return excerpt(text);
    }
  })();
  const fix =
    response.status === 403
      ? `give the server and remoteAgent the same ${SECRET_VARIABLE}, and check that the two machines' clocks agree (tokens live ${DEFAULT_TOKEN_LIFETIME_MS / 1000} s by default).`
      : undefined;
  return new TooltraceError(`the deployed agent's gate at ${settings.url.href} answered ${response.status}: ${said}`, fix);
}

async function recordedCalls(settings: Settings, response: Response): Promise<RecordedCalls & { interactions: readonly Interaction[] }> {
  if (!response.ok) throw await failure(settings, response, "calls");
  const body = (await response.json().catch(() => undefined)) as Partial<RecordedCalls> & { version?: unknown };
  if (body?.version !== TRACE_FORMAT_VERSION || !Array.isArray(body.interactions) || !Array.isArray(body.violations ?? [])) {
    throw new TooltraceError(
      `the deployed agent's recorded calls are not in trace format ${TRACE_FORMAT_VERSION} (version ${String(body?.version)}): use the same tooltrace version on both sides.`,
    );
  }
  return { interactions: body.interactions, violations: body.violations ?? [] };
}

/** The session's id on the wire: random, one per session (its pipeline), never its name. */
function sessionIdOf(pipeline: Pipeline): string {
  const known = sessionIds.get(pipeline);
  if (known !== undefined) return known;
  const id = randomId();
  sessionIds.set(pipeline, id);
  return id;
}

function defaultBody(message: string, history: AgentContext<RemoteMessage>["history"]): unknown {
  return { message, history };
}
