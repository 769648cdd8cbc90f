import { syncBuiltinESMExports } from "node:module";
import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { TooltraceError } from "../exits/errors.js";
import { shareNodeHttpWithMsw } from "./node-http.js";
import { globalSingleton } from "../base/global-state.js";
import { currentScope } from "../lifecycle/scope.js";
import { catchHttp } from "./msw-http.js";
import type { BypassEvents } from "./msw-passthrough.js";
import { holdHttpCaught } from "../pipeline/http-catching.js";
import { mswEnds, mswInterceptsSockets, mswIsListening } from "../edges/msw-listening.js";
import { markMswFetch } from "../edges/fetch-guard.js";
import { llmWire, type LlmWire, type LlmWireOptions } from "./msw-llm-wire.js";

/** What tooltrace needs of an MSW server it joins (`setupServer()` from msw 2 or 3). */
export interface JoinableServer {
  use(...handlers: HttpHandler[]): void;
  /** With it, tooltrace also traces your handlers' exchanges during a turn, and strict sessions may run. */
  listHandlers?(): readonly unknown[];
  /** With it, tooltrace's handlers join your initial ones, so your `resetHandlers()` after each test keeps them. */
  resetHandlers?(...handlers: HttpHandler[]): void;
}

/** Options of {@link startLlmServer}. */
export interface LlmServerOptions extends LlmWireOptions {
  /**
   * Your own MSW server, listening: tooltrace joins it instead of starting a second one. The wire handlers
   * and an HTTP catcher go in front of your handlers (among the initial ones, so your `resetHandlers()` keeps
   * them: join before adding runtime handlers with `server.use`). During a turn your handlers still answer
   * (asked before the session's mocks, which win), each exchange traced as `msw-handler`; a request none of
   * them answers is the session's, as on tooltrace's own server: sent, or refused when strict. Outside a
   * turn your server is as it was, your `onUnhandledRequest` included.
   */
  readonly server?: JoinableServer;
  /**
   * Without `server`: what tooltrace's own server does with requests that are not LLM calls and are made
   * outside a session's turn. Default `bypass` (they go out untouched); `error` makes a run hermetic.
   * Requests made during a turn are traced (`turn.httpCalls`) and, in a strict session, refused.
   */
  readonly onUnhandledRequest?: "bypass" | "warn" | "error";
}

/** A running wire mock. */
export interface LlmServer extends LlmWire {
  /** Stops answering (and stops the MSW server, when this call started one). */
  close(): void;
  [Symbol.dispose](): void;
}

/** tooltrace's own MSW server in this process, and how many wire mocks use it. */
const own = globalSingleton("ownMswServer", () => ({
  server: undefined as { use(...handlers: HttpHandler[]): void } | undefined,
  policy: "bypass" as string,
  users: 0,
  stop: () => undefined as undefined,
  /** Ends a stopped server's interception now, when it has not ended yet (see `own.stop`). */
  ending: undefined as (() => void) | undefined,
}));

/**
 * Starts answering the LLM APIs.
 *
 * tooltrace keeps one MSW server per process: the first call starts it, with the wire handlers and an HTTP
 * catcher that traces every other request a session's turn makes (and refuses it in a strict session); a
 * later call adds its wire handlers to the same server, first in line, and its `close()` switches them
 * off. The server stops when the last one closes; under msw 3 its interception ends on the next turn of the event
 * loop, after what the clients' pools do at once (a connection made again for a request that just ended meets
 * the mock).
 * Requests outside a turn go by `onUnhandledRequest`.
 *
 * With `{ server }`, tooltrace joins your MSW server instead (see {@link LlmServerOptions.server}), and
 * `close()` switches its handlers off so requests fall through to yours.
 *
 * Started inside a test, it is closed when the test ends, also when the test fails or times out.
 *
 * MSW servers in one process share their interceptors, so two servers fight over every request and the
 * first to close takes the interception of both with it. When a server that is not tooltrace's is already
 * listening this throws and says to pass it as `server`.
 */
export function startLlmServer(options: LlmServerOptions = {}): LlmServer {
  const wire = llmWire(options);
  if (options.server) return closeWithTest(join(options.server, wire));
  if (own.server !== undefined) {
    if (options.onUnhandledRequest !== undefined && options.onUnhandledRequest !== own.policy) {
      throw new TooltraceError(
        `tooltrace's MSW server is already running in this process with onUnhandledRequest "${own.policy}", and this startLlmServer() asks for "${options.onUnhandledRequest}"; one server has one policy. ` +
          "Set it where the server starts (the plugin's `llm: { onUnhandledRequest }`, or the first startLlmServer()), or drop it here.",
      );
    }
    own.server.use(...wire.handlers);
    return closeWithTest(shareOwn(wire));
  }
  own.ending?.();
  if (mswIsListening()) {
    throw new TooltraceError(
      "another MSW server is already listening in this process, and two servers would intercept the same requests. " +
        "Pass yours: startLlmServer({ server }), or add the handlers yourself: server.use(...llmWire().handlers).",
    );
  }
  const events = { server: undefined as { events: BypassEvents } | undefined };
  const server = setupServer(...wire.handlers, catchHttp({ events: () => events.server?.events }));
  events.server = server as unknown as { events: BypassEvents };
  const policy = options.onUnhandledRequest ?? "bypass";
  // Ours (the session's catcher of node:http), if running, is the one MSW's adds its listeners to.
  shareNodeHttpWithMsw();
  // msw 3 renamed the option (`onUnhandledFrame`); each major ignores the other's name.
  server.listen({ onUnhandledRequest: policy, onUnhandledFrame: policy } as Parameters<typeof server.listen>[0]);
  // MSW patches `http.request` on node's module objects; `import { request } from "node:http"` keeps the
  // original unless the builtins' ESM exports are synced, and such a request would slip past interception.
  syncBuiltinESMExports();
  const release = holdInterception("own");
  own.server = server;
  own.policy = policy;
  // msw 3 answers at the socket (msw 2 patches `fetch` itself): known once it listens.
  const atTheSocket = mswInterceptsSockets();
  own.stop = () => {
    own.server = undefined;
    release();
    const end = () => {
      server.close();
      syncBuiltinESMExports();
    };
    if (!atTheSocket) {
      end();
      return;
    }
    // A client's pool may be connecting again for a request that has just ended (undici does, for a stream the
    // OpenAI SDK aborts once read). Interception ends once that has run, so the connection meets the mock, not
    // the network (a DNS query the run would refuse, failing the test). New requests meanwhile are handled as
    // after it: `mswEnds` hides the server from the guards and catchers.
    const ended = mswEnds();
    const finish = () => {
      clearImmediate(timer);
      if (own.ending !== finish) return;
      own.ending = undefined;
      end();
      ended();
    };
    const timer = setImmediate(finish);
    own.ending = finish;
  };
  return closeWithTest(shareOwn(wire));
}

/** One user of tooltrace's own server: its handlers go off at `close()`, the server with the last user. */
function shareOwn(wire: LlmWire): LlmServer {
  own.users += 1;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    wire.close();
    own.users -= 1;
    if (own.users === 0) own.stop();
  };
  return { ...wire, close, [Symbol.dispose]: close };
}

/** Joins a user's server: the wire handlers, and a catcher in front of their handlers when they can be listed. */
function join(server: JoinableServer, wire: LlmWire): LlmServer {
  let open = true;
  const listHandlers = server.listHandlers?.bind(server);
  // The catcher leaves tooltrace's own handlers (these, and those of earlier joins) out of the user's.
  const catcher =
    listHandlers === undefined ? undefined : catchHttp({ open: () => open, userHandlers: listHandlers, events: () => eventsOf(server) });
  const added = [...wire.handlers, ...(catcher ? [catcher] : [])];
  // Among the initial handlers (the ones `resetHandlers()` goes back to), in front: after close they stay, inert.
  if (listHandlers !== undefined && server.resetHandlers !== undefined)
    server.resetHandlers(...added, ...(listHandlers() as HttpHandler[]));
  else server.use(...added);
  const release = catcher === undefined ? () => undefined : holdInterception("joined");
  const close = () => {
    if (!open) return;
    open = false;
    wire.close();
    release();
  };
  return { ...wire, close, [Symbol.dispose]: close };
}

/** While a catcher listens: strict sessions may be created, and the guard under `fetch` is in place. */
function holdInterception(kind: "own" | "joined"): () => void {
  const removeGuard = markMswFetch();
  // A joined server may stop listening without telling tooltrace: it catches only while MSW listens.
  const releaseCaught = holdHttpCaught(kind === "joined" ? mswIsListening : undefined);
  return () => {
    removeGuard();
    releaseCaught();
  };
}

function closeWithTest(server: LlmServer): LlmServer {
  currentScope()?.resources.add({ close: () => server.close() });
  return server;
}

/** A server's lifecycle events, when it has them (setupServer's do; a hand-made server may not). */
function eventsOf(server: object): BypassEvents | undefined {
  const events = (server as { events?: Partial<BypassEvents> }).events;
  return typeof events?.on === "function" ? (events as BypassEvents) : undefined;
}
