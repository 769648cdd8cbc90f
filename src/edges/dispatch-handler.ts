/** The options Node's `fetch` gives its dispatcher for one request (undici's `Dispatcher.dispatch`). */
export interface DispatchOptions {
  readonly origin?: unknown;
  readonly path?: string;
  readonly method?: string;
  readonly headers?: unknown;
  readonly body?: unknown;
  readonly upgrade?: unknown;
}

/** What `fetch` hands its dispatcher to hear the response: undici's handler, in its older or newer form. */
export interface DispatchHandler {
  onConnect?(abort: (reason?: unknown) => void): void;
  onResponseStarted?(): void;
  onHeaders?(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: unknown): void;
  onError?(error: Error): void;
  onRequestStart?(controller: DispatchController, context: unknown): void;
  onResponseStart?(controller: DispatchController, status: number, headers: Record<string, string>, statusText: string): void;
  onResponseData?(controller: DispatchController, chunk: Buffer): void;
  onResponseEnd?(controller: DispatchController, trailers: Record<string, string>): void;
  onResponseError?(controller: DispatchController, error: Error): void;
}

interface DispatchController {
  abort(reason: unknown): void;
  pause(): void;
  resume(): void;
  readonly aborted: boolean;
  readonly paused: boolean;
  readonly reason: unknown;
}

/** The request's URL: `origin` and `path` as `fetch` gave them. */
export function dispatchUrl(options: DispatchOptions): string {
  return `${String(options.origin ?? "")}${options.path ?? ""}`;
}

/** The request as a `Request`, its body read whole (a string, bytes, or the async iterable `fetch` streams it as). */
export async function dispatchRequest(options: DispatchOptions): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of headerPairs(options.headers)) headers.append(name, value);
  const method = options.method ?? "GET";
  const body = await readBody(options.body);
  return new Request(dispatchUrl(options), {
    method,
    headers,
    ...(body !== undefined && method !== "GET" && method !== "HEAD" ? { body: body as BodyInit } : {}),
  });
}

/** Fails the request as a network failure: `fetch` rejects with a `TypeError` whose cause is `error`. */
export function failDispatch(handler: DispatchHandler, error: Error): void {
  queueMicrotask(() =>
    typeof handler.onResponseError === "function" ? handler.onResponseError(controllerOf(), error) : handler.onError?.(error),
  );
}

/** Answers the request with `response`, as if a server had sent it: status, headers, then the body as it arrives. */
export async function respondToDispatch(handler: DispatchHandler, response: Response): Promise<void> {
  let aborted: unknown;
  let resume: (() => void) | undefined;
  const waitForResume = () => new Promise<void>((done) => (resume = done));
  const controller = controllerOf(
    (reason) => {
      aborted = reason ?? new Error("aborted");
    },
    () => resume?.(),
  );
  const legacy = typeof handler.onHeaders === "function";
  try {
    if (legacy) handler.onConnect?.((reason) => controller.abort(reason));
    else handler.onRequestStart?.(controller, {});
    if (aborted !== undefined) throw aborted;
    const pairs: [string, string][] = [];
    response.headers.forEach((value, name) => {
      pairs.push([name, value]);
    });
    let flowing = true;
    if (legacy) {
      handler.onResponseStarted?.();
      flowing =
        handler.onHeaders?.(
          response.status,
          pairs.flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]),
          () => resume?.(),
          response.statusText,
        ) !== false;
    } else handler.onResponseStart?.(controller, response.status, Object.fromEntries(pairs), response.statusText);
    const reader = response.body?.getReader();
    while (reader !== undefined) {
      if (!flowing) await waitForResume();
      if (aborted !== undefined) {
        await reader.cancel(aborted).catch(() => undefined);
        throw aborted;
      }
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = Buffer.from(value);
      if (legacy) flowing = handler.onData?.(chunk) !== false;
      else handler.onResponseData?.(controller, chunk);
    }
    if (aborted !== undefined) throw aborted;
    if (legacy) handler.onComplete?.([]);
    else handler.onResponseEnd?.(controller, {});
  } catch (cause) {
    const error = cause instanceof Error ? cause : new Error(String(cause));
    if (legacy) handler.onError?.(error);
    else handler.onResponseError?.(controller, error);
  }
}

function controllerOf(onAbort: (reason: unknown) => void = () => undefined, onResume: () => void = () => undefined): DispatchController {
  let reason: unknown;
  let paused = false;
  return {
    abort(why) {
      reason = why;
      onAbort(why);
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      onResume();
    },
    get aborted() {
      return reason !== undefined;
    },
    get paused() {
      return paused;
    },
    get reason() {
      return reason;
    },
  };
}

/** Headers as `fetch` hands them over: an object, a list of pairs, or a flat list of names and values. */
function* headerPairs(headers: unknown): Generator<[string, string]> {
  if (headers === null || typeof headers !== "object") return;
  if (Array.isArray(headers)) {
    if (headers.every((entry) => Array.isArray(entry))) {
      for (const [name, value] of headers as [unknown, unknown][]) yield [String(name), String(value)];
      return;
    }
    for (let i = 0; i + 1 < headers.length; i += 2) yield [String(headers[i]), String(headers[i + 1])];
    return;
  }
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (Array.isArray(value)) for (const each of value) yield [name, String(each)];
    else if (value !== undefined) yield [name, String(value)];
  }
}

async function readBody(body: unknown): Promise<Uint8Array | string | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (
    typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function" ||
    typeof (body as Iterable<unknown>)[Symbol.iterator] === "function"
  ) {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<unknown>)
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }
  return String(body);
}

interface Dispatcher {
  dispatch(options: DispatchOptions, handler: DispatchHandler): boolean;
}

/**
 * Sends the request on `dispatcher` (the network, as `fetch` would have) and gives the response as a
 * `Response` whose body streams as it arrives, for a catcher that records what came back.
 */
export function dispatchForResponse(dispatcher: Dispatcher, options: DispatchOptions, body: Uint8Array | null): Promise<Response> {
  return new Promise((resolve, reject) => {
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    let started = false;
    const fail = (error: Error) => {
      if (!started) reject(error);
      else stream?.error(error);
    };
    dispatcher.dispatch(
      { ...options, body },
      {
        onConnect: () => undefined,
        onHeaders(status, rawHeaders, _resume, statusText) {
          started = true;
          const headers = new Headers();
          for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.append(String(rawHeaders[i]), String(rawHeaders[i + 1]));
          const nullBody = status === 204 || status === 205 || status === 304 || options.method === "HEAD";
          const readable = nullBody ? null : new ReadableStream<Uint8Array>({ start: (controller) => (stream = controller) });
          resolve(new Response(readable, { status, statusText, headers }));
          return true;
        },
        onData(chunk) {
          stream?.enqueue(new Uint8Array(chunk));
          return true;
        },
        onComplete() {
          stream?.close();
        },
        onError: fail,
      },
    );
  });
}
