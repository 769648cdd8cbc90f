import { Redactor } from "../secrets/redactor.js";
import { asOwnNetwork } from "../base/own-network.js";
import { TooltraceError } from "../exits/errors.js";
import type { ResolvedReply } from "../model/types.js";
import { usageError } from "../exits/errors.js";
import type { WireCodec } from "./codec.js";
import type { WireRequest } from "./wire-http.js";
import type { ProviderWait } from "../trace/types.js";
import { sendToProvider } from "./provider-send.js";

/**
 * Where a session's model calls go when no mock model answers them (`createSession({ upstream })`): `true`
 * for the URL the client called (for a CLI behind tooltrace's proxy, the provider's own API), or a base URL
 * the request's path is appended to (a gateway, a local fake); `false` is off, as if not given.
 */
export type Upstream = boolean | string;

/** The upstream answered with an error status: the client gets that answer as it was. */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  constructor(
    readonly status: number,
    readonly body: string,
    readonly contentType: string,
  ) {
    super(`the upstream answered ${status}: ${body.slice(0, 300)}`);
  }
}

/** A live reply's events, on their way to the client as they arrive. */
export interface LiveStream {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ReadableStream<Uint8Array>;
}

/** What the upstream sent, kept with the reply decoded from it, so an unchanged reply reaches the client as it came. */
export interface RawReply {
  /** Whether the body is server-sent events. */
  readonly streamed: boolean;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const rawReplies = new WeakMap<ResolvedReply, RawReply>();
/**
 * URLs in messages lose their credentials and secret query parameters, as in a cassette. The redactor is made at
 * the first message, so importing tooltrace does not read the environment.
 */
let forMessages: Redactor | undefined;
function messageUrl(url: string): string {
  forMessages ??= new Redactor();
  return forMessages.url(url);
}

/** The upstream's own response for `reply`, if `reply` is exactly what it sent (nothing in the chain replaced it). */
export function rawReplyOf(reply: ResolvedReply): RawReply | undefined {
  return rawReplies.get(reply);
}

/** Checks a session's `upstream` option (`false` is off); the message names the field and what to give. */
export function checkUpstream(value: unknown): true | string | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return value;
  if (typeof value === "string" && /^https?:\/\/[^/]/.test(value)) {
    try {
      new URL(value);
      return value.replace(/\/+$/, "");
    } catch {
      // reported below
    }
  }
  throw usageError(
    `createSession({ upstream }): expected true (the URL the client called), a base URL as an SDK takes one ("https://api.openai.com/v1"), or false (off), got ${JSON.stringify(value)}.`,
  );
}

/** An API version's segment of a path: `v1`, `v1beta`, `v2alpha1`. */
const VERSION = /^v\d+(?:alpha|beta)?\d*$/;

/**
 * The URL a model request is sent on to: the upstream's base followed by the path the client's SDK built. A base
 * with a path is read as the SDKs read a base URL: what the provider's own base has (OpenAI's `/v1`) is the
 * base's to say, and so is the API version (`http://host/v1` and `/v1/messages` join once, as `/v1/messages`).
 */
export function upstreamUrl(upstream: true | string, codec: WireCodec, requestUrl: string, path: string, proxied: boolean): string {
  if (upstream === true && !proxied) return requestUrl;
  const search = new URL(requestUrl).search;
  if (upstream === true) return `${new URL(codec.defaultBaseUrl).origin}${path}${search}`;
  const basePath = new URL(upstream).pathname.replace(/\/+$/, "");
  if (basePath === "") return `${upstream}${path}${search}`;
  const own = new URL(codec.defaultBaseUrl).pathname.replace(/\/+$/, "");
  let rest = own !== "" && path.startsWith(`${own}/`) ? path.slice(own.length) : path;
  const first = rest.split("/")[1] ?? "";
  if (VERSION.test(basePath.split("/").at(-1) ?? "") && VERSION.test(first)) rest = rest.slice(first.length + 1);
  return `${upstream}${rest}${search}`;
}

const HOP_BY_HOP = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "accept-encoding"]);

/** How {@link forwardToUpstream} sends: the model asked for, and who hears of the stream and the waits. */
export interface ForwardOptions {
  /** The model the request asks for: with the codec's provider, the key of the run's limit. */
  readonly model: string;
  readonly signal?: AbortSignal | undefined;
  /** Hears a stream of events as it arrives (one branch of it), while the other is read whole into the reply. */
  readonly onStream?: ((live: LiveStream) => void) | undefined;
  /** Hears what the call waited on the provider's account (see `sendToProvider`). */
  readonly onWait?: ((wait: ProviderWait) => void) | undefined;
}

/**
 * Sends a model request on to the real upstream, as the client sent it, under the run's limit for its
 * provider and model (rate-limit answers waited out), and reads the whole answer (JSON or server-sent events)
 * into a reply. The request is marked for MSW to let through untouched, so the HTTP catcher neither traces
 * it a second time nor refuses it.
 */
export async function forwardToUpstream(
  codec: WireCodec,
  url: string,
  headers: WireRequest["headers"],
  body: string,
  streamed: boolean,
  options: ForwardOptions,
): Promise<ResolvedReply> {
  const { signal, onStream } = options;
  const sent = new Headers();
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) sent.set(name, value);
  });
  // MSW's `bypass()` marker: its interceptors pass such a request through and strip the marker.
  sent.append("accept", "msw/passthrough");
  const send = async (): Promise<Response> => {
    try {
      return await asOwnNetwork(() => fetch(url, { method: "POST", headers: sent, body, ...(signal ? { signal } : {}) }));
    } catch (cause) {
      const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
      throw new TooltraceError(`the upstream ${messageUrl(url)} (createSession({ upstream })) could not be reached: ${reason}`);
    }
  };
  const read = async (response: Response) => {
    const contentType = response.headers.get("content-type") ?? "";
    const kept: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== "content-encoding" && name !== "content-length" && name !== "transfer-encoding") kept[name] = value;
    });
    if (onStream !== undefined && response.ok && streamed && contentType.includes("text/event-stream") && response.body !== null) {
      const [client, mine] = response.body.tee();
      onStream({ status: response.status, headers: kept, body: client });
      return { response, contentType, kept, text: await new Response(mine).text() };
    }
    return { response, contentType, kept, text: await response.text() };
  };
  const provider = codec.api.slice(0, codec.api.indexOf("."));
  const { response, contentType, kept, text } = await sendToProvider(provider, options.model, send, read, signal, options.onWait);
  if (!response.ok) throw new UpstreamError(response.status, text, contentType);
  let reply: ResolvedReply;
  const events = streamed && contentType.includes("text/event-stream");
  try {
    reply = codec.decodeReply(text, events);
  } catch (cause) {
    throw new TooltraceError(
      `the upstream ${messageUrl(url)} answered with a body tooltrace cannot read as ${codec.api} (${cause instanceof Error ? cause.message : String(cause)}): ${text.slice(0, 200)}`,
    );
  }
  rawReplies.set(reply, { streamed: events, status: response.status, headers: kept, body: text });
  return reply;
}
