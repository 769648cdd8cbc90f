// The opposite direction: a tokened request whose handler continues from an event emitted by Node (reading
// the body with req.on("data"/"end"), as many node:http handlers and body parsers do) loses the turn context:
// the real tool runs although the token said strict, and the test's trace is empty.
import express from "express";
import { afterEach, expect, test } from "vitest";
import { fetchCalls, listen, lookupTools, nodeServer, TOKEN_HEADER, tok, tooltraceServer, turnGrant, secret } from "./helpers.js";
import { createServer } from "node:http";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

function readBodyWithEvents(req: import("node:http").IncomingMessage, done: (body: string) => void) {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => done(body));
}

test("node:http, body read with req.on('end'): the request's rules still apply (strict, the real tool never runs)", async () => {
  const { tools, realRuns } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const server = nodeServer(
    traced.node((req, res) => {
      readBodyWithEvents(req, async (body) => {
        const out = await tools.lookup({ id: JSON.parse(body).id }).catch((e: Error) => ({ error: e.message.slice(0, 60) }));
        res.end(JSON.stringify(out));
      });
    }),
  );
  const url = await listen(server);
  cleanup.push(
    () => server.close(),
    () => traced.close(),
  );
  const grant = turnGrant({ strict: true });
  const answer = await (
    await fetch(url, { method: "POST", body: JSON.stringify({ id: "charge-card" }), headers: { [TOKEN_HEADER]: tok(grant) } })
  ).json();
  const calls = await fetchCalls(url, grant);
  expect(calls.body.interactions?.map((i) => (i as { answeredBy?: { kind: string } }).answeredBy?.kind)).toEqual(["stub"]);
  expect(realRuns).toEqual([]); // strict + stub: the real tool must never run
  expect(answer).toEqual({ source: "stub" });
});

test("Express with a hand-written body reader after the gate: the rules still apply", async () => {
  const { tools, realRuns } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const app = express();
  app.use("/chat", traced.express());
  app.use((req, _res, next) => readBodyWithEvents(req, (body) => (((req as { body?: unknown }).body = JSON.parse(body || "{}")), next())));
  app.post("/chat", async (req, res) => {
    res.json(await tools.lookup({ id: (req.body as { id: string }).id }));
  });
  const server = createServer(app);
  const url = await listen(server);
  cleanup.push(
    () => server.close(),
    () => traced.close(),
  );
  const answer = await (
    await fetch(`${url}/chat`, {
      method: "POST",
      body: JSON.stringify({ id: "x" }),
      headers: { "content-type": "application/json", [TOKEN_HEADER]: tok(turnGrant({ strict: true })) },
    })
  ).json();
  expect(answer).toEqual({ source: "stub" });
  expect(realRuns).toEqual([]);
});

test("control: express.json() (raw-body binds its callback) keeps the context", async () => {
  const { tools, realRuns } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const app = express();
  app.use("/chat", traced.express());
  app.use(express.json());
  app.post("/chat", async (req, res) => {
    res.json(await tools.lookup({ id: (req.body as { id: string }).id }));
  });
  const server = createServer(app);
  const url = await listen(server);
  cleanup.push(
    () => server.close(),
    () => traced.close(),
  );
  const answer = await (
    await fetch(`${url}/chat`, {
      method: "POST",
      body: JSON.stringify({ id: "x" }),
      headers: { "content-type": "application/json", [TOKEN_HEADER]: tok(turnGrant({ strict: true })) },
    })
  ).json();
  expect(answer).toEqual({ source: "stub" });
  expect(realRuns).toEqual([]);
});
