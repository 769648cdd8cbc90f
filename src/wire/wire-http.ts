import { networkErrorResponse } from "../base/web-response.js";

/**
 * The parts of an HTTP request the wire mock reads: a web `Request` is one, and so is the loopback server's
 * own lighter request, made straight from the socket.
 */
export interface WireRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: {
    get(name: string): string | null;
    has(name: string): boolean;
    forEach(fn: (value: string, name: string) => void): void;
  };
  readonly signal?: AbortSignal;
  text(): Promise<string>;
}

/** An answer of the wire mock before it becomes a web `Response` (or is written to a socket as it is). */
export interface WireReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A whole body (JSON, or server-sent events known at once), a stream (a live upstream's events), or none. */
  readonly body: string | Uint8Array | ReadableStream<Uint8Array> | null;
}

/**
 * The connection fails before any answer (an injected `network_error`): a `Response.error()` for `fetch`-style
 * callers, a closed socket on the loopback server, a rejected `fetch` under the dispatcher.
 */
export class WireNetworkError extends Error {
  override readonly name = "WireNetworkError";
}

/** The reply as a web `Response`, for MSW and for `answer()`'s callers. */
export function toResponse(reply: WireReply): Response {
  return new Response(reply.body as BodyInit | null, { status: reply.status, headers: reply.headers });
}

/** The reply as a `Response`, or `Response.error()` for a connection failing before any answer. */
export async function answerAsResponse(reply: Promise<WireReply>): Promise<Response> {
  try {
    return toResponse(await reply);
  } catch (error) {
    if (error instanceof WireNetworkError) return networkErrorResponse();
    throw error;
  }
}

const WIRE_ANSWER = Symbol.for("tooltrace.wireAnswer");

/** Marks a fetch-style handler with the same answer before it is a `Response` (see {@link wireAnswerOf}). */
export function withWireAnswer<T extends (request: Request) => Promise<Response>>(
  handler: T,
  wire: (request: WireRequest) => Promise<WireReply>,
): T {
  return Object.defineProperty(handler, WIRE_ANSWER, { value: wire });
}

/** The answer behind a handler made by the wire mock, when it is one: a socket server writes it without a `Response`. */
export function wireAnswerOf(handler: unknown): ((request: WireRequest) => Promise<WireReply>) | undefined {
  return typeof handler === "function"
    ? (handler as unknown as Record<symbol, ((request: WireRequest) => Promise<WireReply>) | undefined>)[WIRE_ANSWER]
    : undefined;
}
