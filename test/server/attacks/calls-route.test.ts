// Promise 5: the calls route.
import { afterEach, expect, test } from "vitest";
import { fetchCalls, listen, lookupTools, nodeServer, sleep, TOKEN_HEADER, tok, tooltraceServer, turnGrant, secret } from "./helpers.js";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

test("a request's calls are served once, also to two calls tokens sent while it still streams", async () => {
  const { tools } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const server = nodeServer(
    traced.node(async (_req, res) => {
      res.write(JSON.stringify(await tools.lookup({ id: "a" })));
      await sleep(300);
      res.end();
    }),
  );
  const url = await listen(server);
  cleanup.push(
    () => server.close(),
    () => traced.close(),
  );
  const grant = turnGrant();
  const turn = fetch(url, { headers: { [TOKEN_HEADER]: tok(grant) } }).then((r) => r.text());
  await sleep(50);
  const [a, b] = await Promise.all([fetchCalls(url, grant), fetchCalls(url, grant)]);
  await turn;
  const c = await fetchCalls(url, grant);
  expect([a.status, b.status].sort()).toEqual([200, 404]);
  expect(c.status).toBe(404);
});

test("a turn token id seen again while its calls are kept is refused, so it cannot replace another session's", async () => {
  const { tools } = lookupTools();
  const traced = tooltraceServer({ tools, secret, log: () => undefined });
  const server = nodeServer(traced.node(async (_req, res) => void res.end(JSON.stringify(await tools.lookup({ id: "x" })))));
  const url = await listen(server);
  cleanup.push(
    () => server.close(),
    () => traced.close(),
  );
  const jti = "shared-id";
  const a = turnGrant({ sid: "A", jti, iat: Date.now(), exp: Date.now() + 200 });
  await (await fetch(url, { headers: { [TOKEN_HEADER]: tok(a) } })).text();
  await sleep(250); // the replay guard forgets the id when the token expires; the store keeps the calls 10 minutes
  const b = turnGrant({ sid: "B", jti, stubs: [] });
  const second = await fetch(url, { headers: { [TOKEN_HEADER]: tok(b) } });
  const forA = await fetchCalls(url, a);
  expect(forA.status).toBe(200);
  expect(second.status).toBe(403); // a token id should be accepted once while its calls are kept
});
