import { catchHttpAtFetch } from "../catchers/fetch-http.js";
import { usageError } from "../exits/errors.js";
import { type BoundTools, bindTools, type ToolsInput } from "../catchers/bind-tools.js";
import { type ExpressMiddleware, gateExpress, gateNodeHandler, type NodeHandler } from "./node-adapter.js";
import { type FetchHandler, gateFetchHandler, gateHono, type HonoMiddleware } from "./fetch-adapter.js";
import { Gate } from "./gate.js";
import { MIN_SECRET_LENGTH, SECRET_VARIABLE } from "./token.js";
import { type LanguageModelLike, traceModel } from "./traced-model.js";
import { printOut } from "../exits/out.js";

/** Options of {@link tooltraceServer}. */
export interface TooltraceServerOptions {
  /**
   * The tools the server's agent calls: the same record it gives the AI SDK (or plain functions), patched in
   * place as `createSession({ tools })` does. A call runs the real tool unless its request carries a valid token.
   */
  readonly tools?: ToolsInput;
  /**
   * The secret tests sign their tokens with, at least 32 characters. Default: `process.env.TOOLTRACE_SECRET`.
   * Without one the adapter is off: every wrapper returns the handler as it is, and nothing is patched.
   */
  readonly secret?: string | undefined;
  /** Refuse (403) every request that carries no token: for a deployment only tests talk to. Default false. */
  readonly requireToken?: boolean;
  /** Where a refusal (and a call that arrived after its request ended) is logged, one line each. Default `console.warn`. */
  readonly log?: (line: string) => void;
}

/** The adapter in front of an agent's route; see {@link tooltraceServer}. */
export interface TooltraceServer {
  /** False when no secret was given: every wrapper below returns what it was given, or a middleware that only calls `next`. */
  readonly enabled: boolean;
  /** A Hono middleware: `app.use("/chat", server.hono())`. */
  hono(): HonoMiddleware;
  /** An Express middleware: `app.use("/chat", server.express())`. */
  express(): ExpressMiddleware;
  /** A `node:http` handler, gated: `http.createServer(server.node(handler))`. */
  node<H extends NodeHandler>(handler: H): H;
  /** A fetch-style route handler, gated: `export const POST = server.fetch(handler)` (Next.js, Bun, workers). */
  fetch<H extends FetchHandler>(handler: H): H;
  /** An AI SDK model whose calls go into a gated request's trace (they still reach the real model). */
  model<M extends LanguageModelLike>(model: M): M;
  /** Restores the patched tools and forgets what was recorded. */
  close(): void;
}

/**
 * The server side of testing a deployed agent: a gate in front of its route. A request carrying a valid
 * tooltrace token (signed with the shared secret by `remoteAgent` in the test) runs under that token's stub
 * rules, for its tools and inside that request's async context only, and what it called is recorded for the
 * test to fetch. Tokens are short-lived and accepted once; a forged, expired or replayed one is refused with
 * a 403 and a log line. Without a secret the adapter is inert.
 *
 * @example
 * ```ts
 * const tools = { list_tasks: tool({ ... }), complete_task: tool({ ... }) };
 * const traced = tooltraceServer({ tools });
 * const app = new Hono();
 * app.use("/chat", traced.hono());
 * app.post("/chat", async (c) => {
 *   const { message } = await c.req.json();
 *   const { text } = await generateText({ model: traced.model(openai("gpt-4.1")), tools, prompt: message, stopWhen: stepCountIs(5) });
 *   return c.json({ text });
 * });
 * ```
 */
export function tooltraceServer(options: TooltraceServerOptions = {}): TooltraceServer {
  const secret = options.secret ?? process.env[SECRET_VARIABLE];
  if ((secret === undefined || secret === "") && options.requireToken === true)
    throw usageError(
      `tooltraceServer({ requireToken: true }) without a secret would serve every request as if no adapter were there.`,
      `set ${SECRET_VARIABLE} (or \`secret\`) on this deployment, or drop requireToken.`,
    );
  if (secret === undefined || secret === "") return INERT;
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw usageError(
      `tooltraceServer: the secret must be at least ${MIN_SECRET_LENGTH} characters; a short one can be guessed, and every token forged with it.`,
      `generate one (\`openssl rand -base64 32\`) and set ${SECRET_VARIABLE} for the server and the test run alike.`,
    );
  }
  const tools: BoundTools = bindTools(options.tools ?? {}, undefined);
  const gate = new Gate({
    secret,
    tools,
    requireToken: options.requireToken === true,
    log: options.log ?? ((line) => printOut("console", line)),
  });
  // The server's own HTTP (what its tools fetch) is recorded in the request's turn, as a local agent's is.
  catchHttpAtFetch(true);
  return {
    enabled: true,
    hono: () => gateHono(gate),
    express: () => gateExpress(gate),
    node: (handler) => gateNodeHandler(gate, handler),
    fetch: (handler) => gateFetchHandler(gate, handler),
    model: (model) => traceModel(model),
    close: () => {
      gate.close();
      tools.unbind();
    },
  };
}

const INERT: TooltraceServer = {
  enabled: false,
  hono: () => (_context, next) => next().then(() => undefined),
  express: () => (_request, _response, next) => next(),
  node: (handler) => handler,
  fetch: (handler) => handler,
  model: (model) => model,
  close: () => undefined,
};
