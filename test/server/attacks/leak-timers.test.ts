// Promise 1/2: a long-lived resource created lazily inside a tokened request keeps that request's async
// context forever, so later requests WITHOUT a token get the stubs, are recorded into the tester's trace,
// and (strict) have their real tools refused.
import { connect, createServer as createTcpServer, type Socket } from "node:net";
import { afterEach, expect, test } from "vitest";
import { fetchCalls, listen, lookupTools, nodeServer, sleep, TOKEN_HEADER, tok, tooltraceServer, turnGrant, secret } from "./helpers.js";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

/** A DataLoader-style batcher whose flush loop is started by the first request that needs it. */
function lazyBatcher(run: (id: string) => Promise<unknown>) {
  const queue: { id: string; resolve: (v: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  return {
    load(id: string) {
      timer ??= setInterval(() => {
        for (const item of queue.splice(0)) run(item.id).then(item.resolve);
      }, 5);
      return new Promise((resolve) => queue.push({ id, resolve }));
    },
    stop: () => clearInterval(timer),
  };
}

test("a flush loop a tokened request started lazily serves later untokened requests with the real tool, unrecorded", async () => {
  const { tools } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const batcher = lazyBatcher((id) => tools.lookup({ id }));
  const server = nodeServer(
    traced.node(async (req, res) => {
      const id = new URL(req.url ?? "/", "http://x").searchParams.get("id") ?? "";
      res.end(JSON.stringify(await batcher.load(id)));
    }),
  );
  const url = await listen(server);
  cleanup.push(
    () => batcher.stop(),
    () => server.close(),
    () => traced.close(),
  );

  const grant = turnGrant();
  const first = await (await fetch(`${url}/?id=tester`, { headers: { [TOKEN_HEADER]: tok(grant) } })).json();
  expect(first).toEqual({ source: "stub" });
  // An ordinary user, no token at all:
  const user = await (await fetch(`${url}/?id=alice-secret-input`)).json();
  // Fetch the tester's calls AFTER the user's request: the user's input is in the tester's trace.
  const calls = await fetchCalls(url, grant);
  expect(calls.body.interactions?.map((i) => i.input)).toEqual([{ id: "tester" }]);
  expect(user).toEqual({ source: "real", id: "alice-secret-input" });
  // And after the tester's calls were fetched:
  const later = await (await fetch(`${url}/?id=bob`)).json();
  expect(later).toEqual({ source: "real", id: "bob" });
});

test("a strict token's lazily started loop does not refuse a later untokened user's real tool", async () => {
  const { tools, realRuns } = lookupTools();
  const logs: string[] = [];
  const traced = tooltraceServer({ tools, secret, log: (l) => logs.push(l) });
  const batcher = lazyBatcher((id) => tools.lookup({ id }).catch((e: Error) => ({ error: e.message.slice(0, 80) })));
  const server = nodeServer(
    traced.node(async (req, res) => {
      const id = new URL(req.url ?? "/", "http://x").searchParams.get("id") ?? "";
      res.end(JSON.stringify(await batcher.load(id)));
    }),
  );
  const url = await listen(server);
  cleanup.push(
    () => batcher.stop(),
    () => server.close(),
    () => traced.close(),
  );
  await (await fetch(`${url}/?id=tester`, { headers: { [TOKEN_HEADER]: tok(turnGrant({ strict: true, stubs: [] })) } })).text();
  const user = await (await fetch(`${url}/?id=alice`)).json();
  expect(user).toEqual({ source: "real", id: "alice" });
  expect(realRuns).toEqual(["alice"]);
});

test("a pooled connection a tokened request opened lazily serves later requests for real", async () => {
  // A tiny line-echo "database" and a callback-style driver: replies are dispatched from the socket's 'data'
  // event, i.e. in the async context the socket was created in.
  const db = createTcpServer((s) => s.on("data", (d) => s.write(d)));
  await new Promise<void>((r) => db.listen(0, "127.0.0.1", r));
  const port = (db.address() as { port: number }).port;
  let socket: Socket | undefined;
  const pending: ((line: string) => void)[] = [];
  const query = (q: string, cb: (line: string) => void) => {
    if (!socket) {
      socket = connect(port, "127.0.0.1");
      let buf = "";
      socket.on("data", (d) => {
        buf += d;
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          pending.shift()?.(line);
        }
      });
    }
    pending.push(cb);
    socket.write(`${q}\n`);
  };
  const { tools } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const server = nodeServer(
    traced.node((req, res) => {
      const id = new URL(req.url ?? "/", "http://x").searchParams.get("id") ?? "";
      query(id, (row) => void tools.lookup({ id: row }).then((v) => res.end(JSON.stringify(v))));
    }),
  );
  const url = await listen(server);
  cleanup.push(
    () => socket?.destroy(),
    () => db.close(),
    () => server.close(),
    () => traced.close(),
  );
  expect(await (await fetch(`${url}/?id=tester`, { headers: { [TOKEN_HEADER]: tok(turnGrant()) } })).json()).toEqual({ source: "stub" });
  const user = await (await fetch(`${url}/?id=alice`)).json();
  expect(user).toEqual({ source: "real", id: "alice" });
});

// Out of reach, and documented in the README: a batch flushed while the tokened request still runs mixes a
// tokened and an untokened request's keys, and runs in the context of whoever enqueued first.
test("out of reach: a batch shared while a tokened request runs carries its rules (documented)", async () => {
  const { tools } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  let queue: { id: string; resolve: (v: unknown) => void }[] = [];
  const load = (id: string) =>
    new Promise((resolve) => {
      if (queue.length === 0)
        setTimeout(() => {
          const batch = queue;
          queue = [];
          for (const item of batch) void tools.lookup({ id: item.id }).then(item.resolve);
        }, 30);
      queue.push({ id, resolve });
    });
  const server = nodeServer(
    traced.node(async (req, res) => {
      res.end(JSON.stringify(await load(new URL(req.url ?? "/", "http://x").searchParams.get("id") ?? "")));
    }),
  );
  const url = await listen(server);
  cleanup.push(
    () => server.close(),
    () => traced.close(),
  );
  const [, user] = await Promise.all([
    fetch(`${url}/?id=tester`, { headers: { [TOKEN_HEADER]: tok(turnGrant()) } }).then((r) => r.json()),
    sleep(5).then(() => fetch(`${url}/?id=alice`).then((r) => r.json())),
  ]);
  expect(user).toEqual({ source: "stub" });
});
