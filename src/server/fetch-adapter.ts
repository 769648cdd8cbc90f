import type { TurnContext } from "../pipeline/caught.js";
import { runInTurnContext } from "../pipeline/turn-context.js";
import { type Gate, GATE_REPLY_HEADERS, type GateReply } from "./gate.js";
import type { RecordedRequest } from "./recorded-request.js";
import { TOKEN_HEADER } from "./token.js";

/**
 * A fetch-style route handler (`(request) => Response`): Next.js route handlers, Hono's `app.fetch`, Bun, Deno,
 * workers. Written as a method's type, whose parameters TypeScript compares both ways, so a handler taking a
 * subclass of `Request` (Next.js's `NextRequest`) fits too.
 */
export type FetchHandler = { handle(request: Request, ...rest: never[]): Response | Promise<Response> }["handle"];

/** What a Hono middleware sees of its context (typed structurally, so `tooltrace/server` never needs hono). */
export interface HonoContextLike {
  readonly req: { header(name: string): string | undefined; readonly method: string; readonly path: string };
  res: Response;
}

/** A Hono middleware: `app.use(middleware)` or `app.use("/chat", middleware)`. */
export type HonoMiddleware = (context: HonoContextLike, next: () => Promise<void>) => Promise<Response | undefined>;

/** `handler` behind the gate: see {@link Gate}. */
export function gateFetchHandler<H extends FetchHandler>(gate: Gate, handler: H): H {
  const gated = async (request: Request, ...rest: never[]): Promise<Response> => {
    const decision = gate.decide(request.headers.get(TOKEN_HEADER) ?? undefined, request.method, new URL(request.url).pathname);
    if (decision.kind === "pass") return handler(request, ...rest);
    if (decision.kind === "answer") return toResponse(await decision.reply);
    try {
      return tracked(await runInTurnContext(decision.request.context, () => handler(request, ...rest)), decision.request);
    } catch (error) {
      decision.request.end();
      throw error;
    }
  };
  return gated as H;
}

/** The gate as a Hono middleware. */
export function gateHono(gate: Gate): HonoMiddleware {
  return async (context, next) => {
    const decision = gate.decide(context.req.header(TOKEN_HEADER), context.req.method, context.req.path);
    if (decision.kind === "pass") {
      await next();
      return undefined;
    }
    if (decision.kind === "answer") return toResponse(await decision.reply);
    try {
      await runInTurnContext(decision.request.context, next);
    } catch (error) {
      decision.request.end();
      throw error;
    }
    context.res = tracked(context.res, decision.request);
    return undefined;
  };
}

function toResponse(reply: GateReply): Response {
  return new Response(reply.body, { status: reply.status, headers: GATE_REPLY_HEADERS });
}

/**
 * The same response, its body read inside the request's turn context (a stream the agent fills as it is
 * read, such as the AI SDK's, makes its calls there), and the request ended once the body is done.
 */
function tracked(response: Response, request: RecordedRequest): Response {
  const { body } = response;
  if (body === null || response.status === 101) {
    request.end();
    return response;
  }
  const reader = body.getReader();
  const context: TurnContext = request.context;
  const stream = new ReadableStream<Uint8Array>({
    pull: (controller) =>
      runInTurnContext(context, () => reader.read()).then(
        (chunk) => {
          if (!chunk.done) return controller.enqueue(chunk.value);
          controller.close();
          request.end();
        },
        (error: unknown) => {
          controller.error(error);
          request.end();
        },
      ),
    cancel: (reason) => {
      request.end();
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}
