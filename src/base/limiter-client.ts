import { connect, type Socket } from "node:net";
import { asOwnNetwork } from "./own-network.js";

/** A worker's line to the run's limiter host (see `limiter-host.ts`). */
export interface LimiterClient {
  /** Resolves once a slot of `key` is held run-wide; the returned function gives it back, once. */
  acquire(key: string, max: number): Promise<() => void>;
  /** Tells the host a rate-limit answer of `key`'s provider was waited out for `ms`. */
  waited(key: string, ms: number): void;
}

/**
 * Connects to the limiter at `address` (`127.0.0.1:port`) on first use, over one socket for the process.
 * When the host cannot be reached (or goes away), `fallback` answers instead: the limit then holds per process.
 */
export function limiterClient(address: string, fallback: (key: string, max: number) => Promise<() => void>): LimiterClient {
  let socket: Socket | undefined;
  let broken = false;
  let nextId = 1;
  const pending = new Map<number, { readonly key: string; readonly max: number; readonly resolve: (release: () => void) => void }>();
  const send = (line: string) => asOwnNetwork(() => socket?.write(`${line}\n`));
  const breakDown = () => {
    if (broken) return;
    broken = true;
    socket?.destroy();
    for (const waiter of pending.values()) void fallback(waiter.key, waiter.max).then(waiter.resolve);
    pending.clear();
  };
  const open = (): Socket => {
    const [host = "127.0.0.1", port = "0"] = address.split(":");
    const opened = asOwnNetwork(() => connect({ host, port: Number(port), noDelay: true }));
    // A worker ends when its tests do: the line to the limiter keeps it alive only while a request waits on it.
    opened.unref();
    opened.setEncoding("utf8");
    let buffered = "";
    opened.on("data", (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf("\n");
      while (end !== -1) {
        const id = Number(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        end = buffered.indexOf("\n");
        const waiter = pending.get(id);
        pending.delete(id);
        if (pending.size === 0) opened.unref();
        waiter?.resolve(releaser(id));
      }
    });
    opened.on("error", breakDown);
    opened.on("close", breakDown);
    return opened;
  };
  const releaser = (id: number) => {
    let released = false;
    return () => {
      if (released || broken) return;
      released = true;
      send(JSON.stringify({ r: id }));
    };
  };
  return {
    acquire: (key, max) => {
      if (broken) return fallback(key, max);
      socket ??= open();
      socket.ref();
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, { key, max, resolve });
        send(JSON.stringify({ a: id, m: max, k: key }));
      });
    },
    waited: (key, ms) => {
      if (broken) return;
      socket ??= open();
      send(JSON.stringify({ w: key, ms }));
    },
  };
}
