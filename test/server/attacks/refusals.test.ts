// Promise 1 and 3: refusals, on real servers. Each refusal: 403 (or the stated status), one log line, no token
// and no secret in it, the handler never ran.
import { createAdaptorServer } from "@hono/node-server";
import express from "express";
import { Hono } from "hono";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { deflateRawSync } from "node:zlib";
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { GATE_HEADER } from "tooltrace/server";
import { callsGrant, listen, lookupTools, randomId, secret, signToken, TOKEN_HEADER, tok, tooltraceServer, turnGrant } from "./helpers.js";

const logs: string[] = [];
let handled = 0;
let urls: Record<string, string> = {};
const servers: Server[] = [];
const { tools, realRuns } = lookupTools();
const traced = tooltraceServer({ tools, secret, log: (l) => logs.push(l) });

beforeAll(async () => {
  const node = createServer(
    traced.node(async (_req, res) => {
      handled++;
      res.end(JSON.stringify(await tools.lookup({ id: "n" })));
    }),
  );
  const ex = express();
  ex.use("/chat", traced.express());
  ex.post("/chat", async (_req, res) => void (handled++, res.json(await tools.lookup({ id: "e" }))));
  const hono = new Hono();
  hono.use("/api/*", traced.hono());
  hono.post("/api/*", async (c) => (handled++, c.json(await tools.lookup({ id: "h" }))));
  servers.push(node, createServer(ex), createAdaptorServer({ fetch: hono.fetch }) as Server);
  const [n, e, h] = await Promise.all(servers.map((s) => listen(s)));
  urls = { node: `${n}/chat`, express: `${e}/chat`, hono: `${h}/api/chat` };
});
afterAll(() => {
  for (const s of servers) s.close();
  traced.close();
});

async function expectRefused(token: string | string[], status = 403, why?: RegExp) {
  for (const [name, url] of Object.entries(urls)) {
    const before = logs.length;
    const h0 = handled;
    const headers = new Headers();
    for (const t of Array.isArray(token) ? token : [token]) headers.append(TOKEN_HEADER, t);
    const response = await fetch(url, { method: "POST", headers });
    const body = await response.text();
    expect.soft(response.status, `${name} ${body}`).toBe(status);
    expect.soft(handled, name).toBe(h0);
    expect.soft(logs.length - before, name).toBe(1);
    const line = logs.slice(before).join("\n");
    if (why) expect.soft(line).toMatch(why);
    expect.soft(line).not.toContain(secret);
    for (const t of Array.isArray(token) ? token : [token]) if (t.length > 10) expect.soft(line).not.toContain(t.slice(4, 30));
  }
}

test("forged, malformed, expired, future, too long-lived", async () => {
  await expectRefused(signToken("y".repeat(40), turnGrant()), 403, /forged/);
  const [v, , m] = tok(turnGrant()).split(".");
  await expectRefused(`${v}.${tok(turnGrant({ stubs: [] })).split(".")[1]}.${m}`, 403, /forged/);
  await expectRefused("tt1.%%%%.@@@@", 403, /forged|malformed/);
  await expectRefused("tt1.a.b.c", 403, /malformed/);
  await expectRefused("x".repeat(13_000), 403, /malformed/);
  await expectRefused(tok(turnGrant({ iat: Date.now() - 120_000, exp: Date.now() - 1 })), 403, /expired/);
  await expectRefused(tok(turnGrant({ iat: Date.now() + 60_000, exp: Date.now() + 120_000 })), 403, /future/);
  await expectRefused(tok(turnGrant({ iat: Date.now(), exp: Date.now() + 6 * 60_000 })), 403, /lifetime/);
  // The MAC compared as a string: the same bytes in another base64 spelling (padding) are refused.
  await expectRefused(`${tok(turnGrant())}=`, 403, /forged/);
  expect(realRuns).toEqual([]);
});

test("a signed payload that is not a grant, a deflate bomb, invalid base64 in a signed payload, __proto__", async () => {
  const signRaw = (payloadBytes: Buffer) => {
    const p = deflateRawSync(payloadBytes).toString("base64url");
    return `tt1.${p}.${createHmac("sha256", secret).update(`tt1.${p}`).digest("base64url")}`;
  };
  await expectRefused(signRaw(Buffer.from("[]")), 403, /malformed/);
  // 1.2 MB of spaces around a grant: inflates past the 1 MB bound
  const g = JSON.stringify(turnGrant());
  const bomb = signRaw(Buffer.from(" ".repeat(1_200_000) + g));
  await expectRefused(bomb, 403, /malformed/);
  // base64url with junk characters in the middle: the MAC is over the text as sent, so it verifies, and
  // Buffer.from(_, "base64url") skips the junk.
  const p = deflateRawSync(Buffer.from(g)).toString("base64url");
  const junk = `${p.slice(0, 10)}!!${p.slice(10)}`;
  const t = `tt1.${junk}.${createHmac("sha256", secret).update(`tt1.${junk}`).digest("base64url")}`;
  const r = await fetch(urls.node as string, { method: "POST", headers: { [TOKEN_HEADER]: t } });
  expect(r.headers.get(GATE_HEADER)).toBeNull(); // accepted: the MAC covers the exact text sent
  // __proto__ in the grant and in a stub response
  const proto = signRaw(
    Buffer.from(
      `{"__proto__":{"polluted":1},"purpose":"turn","sid":"s","jti":"${randomId()}","iat":${Date.now()},"exp":${Date.now() + 60_000},"strict":false,"stubs":[{"id":"p","tool":"lookup","outcome":{"response":{"__proto__":{"isAdmin":true}}}}]}`,
    ),
  );
  const pr = await fetch(urls.node as string, { method: "POST", headers: { [TOKEN_HEADER]: proto } });
  expect(pr.status).toBe(400);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("replay, other session, calls token as a turn token and back, duplicate headers, header case", async () => {
  const grant = turnGrant();
  const t = tok(grant);
  const first = await fetch(urls.node as string, { method: "POST", headers: { [TOKEN_HEADER]: t } });
  expect(first.status).toBe(200);
  await first.text();
  for (const url of Object.values(urls)) {
    const again = await fetch(url, { method: "POST", headers: { [TOKEN_HEADER]: t } });
    expect(again.status).toBe(403);
  }
  // other session's calls
  const other = await fetch(urls.node as string, { headers: { [TOKEN_HEADER]: tok(callsGrant({ sid: "sess-b", jti: grant.jti })) } });
  expect(other.status).toBe(403);
  // two tokens in two headers: joined, refused as malformed/forged
  await expectRefused([tok(turnGrant()), tok(turnGrant())], 403);
  // A valid token plus an empty duplicate
  await expectRefused([tok(turnGrant()), ""], 403);
  // Upper case header name works (HTTP header names are case-insensitive)
  const upper = await fetch(urls.hono as string, { method: "POST", headers: { "X-TOOLTRACE-TOKEN": tok(turnGrant()) } });
  expect(await upper.json()).toEqual({ source: "stub" });
  // a calls token for a calls token
  const cg = callsGrant({ sid: "sess-a", jti: randomId() });
  const cr = await fetch(urls.node as string, { headers: { [TOKEN_HEADER]: tok(cg) } });
  expect(cr.status).toBe(404);
  await cr.text();
  const cc = await fetch(urls.node as string, { headers: { [TOKEN_HEADER]: tok(callsGrant({ sid: "sess-a", jti: cg.jti })) } });
  expect(cc.status).toBe(404);
  await cc.text();
});

test("log injection through the path a Hono app decodes", async () => {
  const before = logs.length;
  const url = (urls.hono as string).replace("/api/chat", "/api/x%0A%5Btooltrace%5D%20tooltrace%2Fserver%20accepted%20everything");
  const r = await fetch(url, { method: "POST", headers: { [TOKEN_HEADER]: "tt1.forged.forged" } });
  await r.text();
  const line = logs.slice(before).join("\n");
  expect(line.split("\n")).toHaveLength(1);
});

test("log: raw control bytes in a node:http path", async () => {
  const port = new URL(urls.node as string).port;
  const before = logs.length;
  await new Promise<void>((resolve) => {
    const s = connect(Number(port), "127.0.0.1", () =>
      s.end(`POST /chat\x1b[2K\rFAKE?x HTTP/1.1\r\nHost: x\r\n${TOKEN_HEADER}: tt1.a.b\r\nContent-Length: 0\r\n\r\n`),
    );
    s.on("data", () => undefined);
    s.on("close", () => resolve());
  });
  // Node's parser refuses the request line before the gate sees it: no forged log line.
  expect(logs.slice(before)).toEqual([]);
});

test("unknown tool, huge stubs array, 100-rule ceiling", async () => {
  const unknown = await fetch(urls.node as string, {
    method: "POST",
    headers: { [TOKEN_HEADER]: tok(turnGrant({ stubs: [{ id: "u", tool: "drop_database", outcome: { response: 1 } }] })) },
  });
  const many = Array.from({ length: 101 }, (_, i) => ({ id: `r${i}`, tool: "lookup", outcome: { response: 1 } }));
  const big = tok(turnGrant({ stubs: many }));
  const r = await fetch(urls.node as string, { method: "POST", headers: { [TOKEN_HEADER]: big } });
  expect(unknown.status).toBe(400);
  expect(await unknown.text()).toContain("drop_database");
  expect(r.status).toBe(400);
});
