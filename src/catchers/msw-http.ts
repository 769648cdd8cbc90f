import { bypass, getResponse, http, type HttpHandler, type RequestHandler } from "msw";
import { globalSingleton } from "../base/global-state.js";
import { networkErrorResponse } from "../base/web-response.js";
import { markHttpCaught } from "../pipeline/http-catching.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import type { Terminal } from "../pipeline/types.js";
import { requestView } from "./http-request-view.js";
import { type BypassEvents, type Passthrough, passThrough } from "./msw-passthrough.js";

const NETWORK = { kind: "real" } as const;
const USER_HANDLER = { kind: "msw-handler" } as const;

/**
 * A catch-all MSW handler for HTTP requests made during a session's turn: each becomes an `http`
 * interaction in the session's log. At the end of the chain the request goes out for real (MSW's
 * `bypass`), unless strict mode refuses it, which the agent sees as a network error. Requests made outside
 * a turn fall through to the server's unhandled-request policy. Put it after every other handler.
 */
export function httpCatcher(): HttpHandler {
  markHttpCaught();
  return catchHttp();
}

/** Where a catcher sits: in tooltrace's own server, or first in a user's, whose handlers answer at the end of the chain. */
export interface CatchHttpOptions {
  /** The user's own handlers, when the catcher joined their server. */
  readonly userHandlers?: () => readonly unknown[];
  /** False once the catcher's server is closed: requests fall through. */
  readonly open?: () => boolean;
  /** The server's lifecycle events: with them a live request goes out on the client's own connection. */
  readonly events?: () => BypassEvents | undefined;
}

/**
 * The catcher. In a user's server it is added first, so it sees every request of a turn; at the end of
 * the chain the user's handlers' answer is given (traced as `msw-handler`), and a request none of them
 * answers is the session's, as on tooltrace's own server: sent for real, or refused in a strict session.
 * Requests outside a turn never match it, so they meet the server's `onUnhandledRequest` as before.
 */
export function catchHttp(options: CatchHttpOptions = {}): HttpHandler {
  // Only requests made during a turn match: the others meet the server's `onUnhandledRequest` untouched.
  const catcher = http.all(
    () => options.open?.() !== false && currentTurnContext() !== undefined,
    async ({ request, requestId }) => {
      const context = currentTurnContext();
      if (context === undefined) return undefined;
      const others = options
        .userHandlers?.()
        .filter((handler): handler is RequestHandler => isRequestHandler(handler) && !isTooltraceHandler(handler));
      const live = new LiveRequest(request, requestId, options.events?.());
      const terminal = others === undefined ? live.terminal() : await userTerminal(others, request, live);
      try {
        const view = await requestView(request);
        const answered = Promise.resolve(
          context.pipeline.http(context, { kind: "http", method: request.method, url: request.url, request: view }, terminal),
        );
        // Handed back to MSW, the request goes out once this handler returns: its record completes then.
        const first = await Promise.race([answered, live.handedBack]);
        if (first === HANDED_BACK) {
          // At the turn's end its record is complete: answered, read into a cassette, or failed (no response came).
          context.pipeline.turnEnds.on(context.turn, () => {
            live.settle();
            return answered;
          });
          answered.catch(() => undefined);
          return live.answer();
        }
        return first as Response;
      } catch {
        return networkErrorResponse();
      }
    },
  );
  markTooltraceHandler(catcher);
  return catcher;
}

const tooltraceHandlers = globalSingleton("mswHandlers", () => new WeakSet<object>());

/** Marks a handler as tooltrace's own, so a joined server's catcher never takes it for one of the user's. */
export function markTooltraceHandler(handler: object): void {
  tooltraceHandlers.add(handler);
}

function isTooltraceHandler(handler: object): boolean {
  return tooltraceHandlers.has(handler);
}

const HANDED_BACK = Symbol("handed back to MSW");

/**
 * The end of the chain for a request that goes out for real: handed back to MSW (`passthrough()`), so it
 * leaves on the client's own connection with its TLS options and agent, when the server's events say what
 * came back; else re-sent with `fetch(bypass(request))`.
 */
class LiveRequest {
  private passed: Passthrough | undefined;
  private markHandedBack: (value: typeof HANDED_BACK) => void = () => undefined;
  readonly handedBack = new Promise<typeof HANDED_BACK>((resolve) => {
    this.markHandedBack = resolve;
  });

  constructor(
    private readonly request: Request,
    private readonly requestId: string,
    private readonly events: BypassEvents | undefined,
  ) {}

  terminal(): Terminal {
    return { source: NETWORK, live: true, run: () => this.send() };
  }

  /** A response that has not come by now never will. */
  settle(): void {
    this.passed?.settle();
  }

  answer(): Response {
    return this.passed?.answer ?? networkErrorResponse();
  }

  private send(): Promise<Response> {
    if (this.events === undefined) return fetch(bypass(this.request));
    const passed = passThrough(this.events, this.requestId);
    this.passed = passed;
    this.markHandedBack(HANDED_BACK);
    return passed.response.then(
      (response) => response ?? Promise.reject(new TypeError("fetch failed: no response came back before the turn ended")),
    );
  }
}

/**
 * What the user's own handlers answer, asked before the chain (so their side effects happen even when a
 * session's mock then answers). A real response ends the chain, not live; a handler that passes the request
 * through (`passthrough()`, or nothing) leaves it live: sent for real, or refused in a strict session.
 */
async function userTerminal(handlers: readonly RequestHandler[], request: Request, live: LiveRequest): Promise<Terminal> {
  const response = await getResponse([...handlers], request.clone());
  if (response === undefined || isPassthrough(response)) return live.terminal();
  return { source: USER_HANDLER, live: false, run: () => response };
}

/** MSW's `passthrough()`: a 302 marked with its intention. */
function isPassthrough(response: Response): boolean {
  return response.status === 302 && response.headers.get("x-msw-intention") === "passthrough";
}

function isRequestHandler(handler: unknown): handler is RequestHandler {
  return (
    handler !== null &&
    typeof handler === "object" &&
    typeof (handler as RequestHandler).test === "function" &&
    typeof (handler as RequestHandler).run === "function"
  );
}
