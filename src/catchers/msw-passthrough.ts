import { passthrough } from "msw";

/** The part of an MSW server's `events` this uses: each request MSW passed through, with its response. */
export interface BypassEvents {
  on(type: "response:bypass", listener: (event: { requestId: string; response: Response }) => void): unknown;
}

const watched = new WeakMap<object, Map<string, (response: Response) => void>>();

function waitersOf(events: BypassEvents): Map<string, (response: Response) => void> {
  let waiters = watched.get(events);
  if (waiters === undefined) {
    const created = new Map<string, (response: Response) => void>();
    events.on("response:bypass", ({ requestId, response }) => {
      const waiter = created.get(requestId);
      created.delete(requestId);
      waiter?.(response.clone());
    });
    watched.set(events, created);
    waiters = created;
  }
  return waiters;
}

/**
 * A live request handed back to MSW to send (`passthrough()`), so it goes out on the client's own
 * connection: its TLS options (`ca`, `rejectUnauthorized`, client certificates) and its agent are kept,
 * which a request re-sent with `fetch` would drop. `response` settles with what came back; with
 * `undefined` when `settle` is called first (the connection failed: MSW reports no response then).
 */
export interface Passthrough {
  readonly response: Promise<Response | undefined>;
  /** What the MSW handler returns. */
  readonly answer: Response;
  settle(): void;
}

export function passThrough(events: BypassEvents, requestId: string): Passthrough {
  const waiters = waitersOf(events);
  let resolve: (response: Response | undefined) => void = () => undefined;
  const response = new Promise<Response | undefined>((done) => {
    resolve = done;
  });
  waiters.set(requestId, resolve);
  return {
    response,
    answer: passthrough(),
    settle: () => {
      waiters.delete(requestId);
      resolve(undefined);
    },
  };
}
