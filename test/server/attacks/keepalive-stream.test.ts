// Keep-alive reuse of one socket, tokened then untokened, on node:http, Express and Hono; and a Hono stream
// that keeps producing after the handler returned.
import { Agent, request as httpRequest } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import express from "express";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import { afterEach, expect, test } from "vitest";
import { fetchCalls, listen, lookupTools, nodeServer, sleep, TOKEN_HEADER, tok, tooltraceServer, turnGrant, secret } from "./helpers.js";
import type { Server } from "node:http";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, token?: string): Promise<{ body: string; socket: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { agent, method: "POST", headers: { "content-type": "application/json", ...(token ? { [TOKEN_HEADER]: token } : {}) } },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ body, socket: (req.socket as unknown as { localPort: number }).localPort }));
      },
    );
    req.on("error", reject);
    req.end('{"id":"k"}');
  });
}

async function apps() {
  const { tools, realRuns } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const node = nodeServer(
    traced.node(async (req, res) => {
      for await (const _ of req);
      res.end(JSON.stringify(await tools.lookup({ id: "node" })));
    }),
  );
  const ex = express();
  ex.use("/chat", traced.express());
  ex.use(express.json());
  ex.post("/chat", async (_req, res) => void res.json(await tools.lookup({ id: "express" })));
  const hono = new Hono();
  hono.use("/chat", traced.hono());
  hono.post("/chat", async (c) => c.json(await tools.lookup({ id: "hono" })));
  const servers = [node, (await import("node:http")).createServer(ex), createAdaptorServer({ fetch: hono.fetch }) as Server];
  const urls = await Promise.all(servers.map((s) => listen(s)));
  cleanup.push(
    () => {
      for (const s of servers) s.close();
    },
    () => traced.close(),
  );
  return { urls: [urls[0] as string, `${urls[1]}/chat`, `${urls[2]}/chat`], realRuns };
}

test("keep-alive: an untokened request after a tokened one on the same socket is served for real", async () => {
  const { urls, realRuns } = await apps();
  for (const url of urls) {
    const a = await get(url, tok(turnGrant()));
    const b = await get(url);
    const c = await get(url);
    expect(a.socket).toBe(b.socket);
    expect(JSON.parse(a.body)).toEqual({ source: "stub" });
    expect(JSON.parse(b.body).source).toBe("real");
    expect(JSON.parse(c.body).source).toBe("real");
  }
  expect(realRuns).toEqual(["node", "node", "express", "express", "hono", "hono"]);
});

test("Hono stream producing after the handler returned: its calls are in the request's trace; a call after the response ended meets its rules, late, never the real tool", async () => {
  const { tools, realRuns } = lookupTools();
  const logs: string[] = [];
  const traced = tooltraceServer({ tools, secret, log: (l) => logs.push(l) });
  const hono = new Hono();
  hono.use("/s", traced.hono());
  let after: Promise<unknown> | undefined;
  hono.post("/s", (c) =>
    stream(c, async (s) => {
      for (let i = 0; i < 3; i++) {
        await sleep(20);
        await s.write(JSON.stringify(await tools.lookup({ id: `chunk${i}` })));
      }
      after = sleep(50).then(() => tools.lookup({ id: "after-end" }));
    }),
  );
  const server = createAdaptorServer({ fetch: hono.fetch }) as Server;
  const url = `${await listen(server)}/s`;
  cleanup.push(
    () => server.close(),
    () => traced.close(),
  );
  const grant = turnGrant();
  const text = await (await fetch(url, { method: "POST", headers: { [TOKEN_HEADER]: tok(grant) } })).text();
  expect(text).toContain("stub");
  await sleep(100);
  const calls = await fetchCalls(url, grant);
  expect(calls.body.interactions?.map((i) => [i.input, i.late === true])).toEqual([
    [{ id: "chunk0" }, false],
    [{ id: "chunk1" }, false],
    [{ id: "chunk2" }, false],
    [{ id: "after-end" }, true],
  ]);
  expect(calls.body.violations).toEqual([
    expect.stringContaining('lookup({"id":"after-end"}) arrived after turn 0 had ended; answered by stub'),
  ]);
  expect(await after).toMatchObject({ source: "stub" });
  expect(realRuns).toEqual([]);
});
