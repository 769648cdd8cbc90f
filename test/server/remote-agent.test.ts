// remoteAgent against servers in this process: what it refuses before sending anything, and what it says
// when the server is not gated, holds another secret, or the rules would not fit in a header.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { remoteAgent, tooltraceServer } from "tooltrace/server";

const secret = randomBytes(32).toString("base64url");
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`;
}

test("refuses, when it is made, a missing or short secret, a relative URL and a lifetime over the limit", () => {
  const previous = process.env.TOOLTRACE_SECRET;
  delete process.env.TOOLTRACE_SECRET;
  try {
    expect(() => remoteAgent({ url: "http://127.0.0.1:1/chat" })).toThrow(/TOOLTRACE_SECRET is not set/);
  } finally {
    if (previous !== undefined) process.env.TOOLTRACE_SECRET = previous;
  }
  expect(() => remoteAgent({ url: "http://127.0.0.1:1/chat", secret: "short" })).toThrow(/at least 32 characters; this one is shorter/);
  expect(() => remoteAgent({ url: "/chat", secret })).toThrow(/is not an absolute URL/);
  expect(() => remoteAgent({ url: "http://127.0.0.1:1/chat", secret, tokenLifetimeMs: 3_600_000 })).toThrow(/tokenLifetimeMs/);
});

test("a route with no gate in front of it gets no message: the turn fails before its real tools could run unstubbed", async () => {
  const bodies: string[] = [];
  const url = await serve(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    bodies.push(body);
    response.writeHead(200, { "content-type": "application/json" }).end('{"text":"ran for real"}');
  });
  const session = createSession({
    agent: remoteAgent({ url, secret }),
    stubs: [{ id: "x", tool: "t", outcome: { response: 1 } }],
    unusedRules: "ignore",
  });
  const turn = await session.send("Delete everything");
  expect(turn.status).toBe("failed");
  expect(turn.error?.message).toContain("does not answer as a tooltrace/server gate");
  // Only the probe reached it, with no body: the user message never did.
  expect(bodies).toEqual([""]);
});

test("a server holding another secret refuses the tokens, and the turn says to share one secret", async () => {
  const traced = tooltraceServer({ tools: {}, secret: randomBytes(32).toString("base64url"), log: () => undefined });
  const url = await serve(traced.node((_request, response) => response.end('{"text":"never"}')));
  const session = createSession({ agent: remoteAgent({ url, secret }), stubs: [] });
  const turn = await session.send("hi");
  expect(turn.status).toBe("failed");
  expect(turn.error?.message).toMatch(/answered 403: tooltrace\/server refused this request: the token is forged/);
  expect(turn.error?.message).toContain("same TOOLTRACE_SECRET");
  traced.close();
});

test("rules too large for a header are refused before anything is sent", async () => {
  const traced = tooltraceServer({ tools: { t: () => 1 }, secret, log: () => undefined });
  let served = 0;
  const url = await serve(
    traced.node((_request, response) => {
      served += 1;
      response.end('{"text":"never"}');
    }),
  );
  const big = randomBytes(20_000).toString("base64");
  const session = createSession({
    agent: remoteAgent({ url, secret }),
    stubs: [{ id: "big", tool: "t", outcome: { response: big } }],
    unusedRules: "ignore",
  });
  const turn = await session.send("hi");
  expect(turn.error?.message).toMatch(/the session's stub rules make a token of \d+ characters, and a server reads at most 12000/);
  expect(served).toBe(0);
  traced.close();
});
