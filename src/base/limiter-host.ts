import { createServer, type Socket } from "node:net";
import { KeyedSlots, type SlotStats } from "./slots.js";

/** One key's counts in the whole run: its slots', its limit, and the provider's rate-limit answers waited out. */
export interface LimiterKeyStats extends SlotStats {
  /** The key's limit; absent for a key that only waited out rate limits. */
  readonly maxInFlight?: number;
  /** 429 or 529 answers waited out under this key, and how long those waits were in all (ms). */
  rateLimited: number;
  rateLimitedMs: number;
}

/** The run's limiter, in the process that starts the workers. */
export interface LimiterHost {
  /** `127.0.0.1:port`: what a worker's {@link LimiterClient} connects to. */
  readonly address: string;
  /** Each `provider/model`'s counts so far. */
  stats(): ReadonlyMap<string, Readonly<LimiterKeyStats>>;
  /** Starts the counts again, for a run that starts (watch mode's reruns share the host). */
  resetStats(): void;
  close(): void;
}

/**
 * A message of the line protocol: `{"a":id,"m":max,"k":key}` asks for a slot of `key` (the host answers the
 * line `id` once it is held), `{"r":id}` gives it back, `{"w":key,"ms":n}` says a rate-limit answer of the
 * provider was waited out. A worker that goes away gives back what it held.
 */
type Message =
  | { readonly a: number; readonly m: number; readonly k: string }
  | { readonly r: number }
  | { readonly w: string; readonly ms: number };

/** Starts the run's limiter on loopback: one semaphore per `provider/model` for every worker of the run. */
export async function startLimiterHost(): Promise<LimiterHost> {
  const slots = new KeyedSlots();
  const limits = new Map<string, number>();
  const waits = new Map<string, { rateLimited: number; rateLimitedMs: number }>();
  const server = createServer((socket) => serve(socket));
  const serve = (socket: Socket) => {
    socket.setNoDelay(true);
    // Nor does a worker's line: under Jest's --runInBand the worker is this process, and its line stays open.
    socket.unref();
    const held = new Map<number, () => void>();
    let closed = false;
    let buffered = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf("\n");
      while (end !== -1) {
        let message: Message;
        try {
          message = JSON.parse(buffered.slice(0, end)) as Message;
        } catch {
          // Not a limiter client: it gets no slots, and what it held goes back.
          socket.destroy();
          return;
        }
        handle(message);
        buffered = buffered.slice(end + 1);
        end = buffered.indexOf("\n");
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed = true;
      for (const release of held.values()) release();
      held.clear();
    });
    const handle = (message: Message) => {
      if ("a" in message) {
        limits.set(message.k, message.m);
        void slots.acquire(message.k, message.m).then((release) => {
          if (closed) return release();
          held.set(message.a, release);
          socket.write(`${message.a}\n`);
        });
      } else if ("r" in message) {
        held.get(message.r)?.();
        held.delete(message.r);
      } else {
        const counted = waits.get(message.w) ?? { rateLimited: 0, rateLimitedMs: 0 };
        counted.rateLimited += 1;
        counted.rateLimitedMs += message.ms;
        waits.set(message.w, counted);
      }
    };
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // The run ends when its tests do: the limiter never keeps the process alive.
  server.unref();
  const bound = server.address();
  const port = bound !== null && typeof bound === "object" ? bound.port : 0;
  return {
    address: `127.0.0.1:${port}`,
    stats: () => {
      const all = new Map<string, LimiterKeyStats>();
      for (const [key, counted] of slots.stats()) all.set(key, { ...counted, rateLimited: 0, rateLimitedMs: 0 });
      for (const [key, counted] of waits)
        all.set(key, { ...(all.get(key) ?? { peak: 0, granted: 0, queued: 0, queuedMs: 0 }), ...counted });
      for (const [key, entry] of all) {
        const max = limits.get(key);
        if (max !== undefined) all.set(key, { ...entry, maxInFlight: max });
      }
      return all;
    },
    resetStats: () => {
      slots.resetStats();
      waits.clear();
    },
    close: () => server.close(),
  };
}
