// Stubs hold inside their request's async context only: requests served at the same moment, with a token
// and without, or with tokens of two sessions, each see their own rules (or none), and their own trace.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { TOKEN_HEADER, tooltraceServer } from "tooltrace/server";
import { type Grant, randomId, signToken } from "../../src/server/token.js";

const secret = randomBytes(32).toString("base64url");
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

/** A `node:http` server whose handler waits until `expected` requests are inside it at once, then calls the tool. */
async function rendezvousServer(expected: number) {
  const realRuns: string[] = [];
  const tools = {
    lookup: async (input: { id: string }) => {
      realRuns.push(input.id);
      return { source: "real", id: input.id };
    },
  };
  const traced = tooltraceServer({ tools, secret });
  let inside = 0;
  let everyoneIn: () => void = () => undefined;
  const together = new Promise<void>((resolve) => (everyoneIn = resolve));
  const server: Server = createServer(
    traced.node(async (request, response) => {
      const id = new URL(request.url ?? "/", "http://localhost").searchParams.get("id") ?? "";
      inside += 1;
      if (inside === expected) everyoneIn();
      await together;
      response.end(JSON.stringify(await tools.lookup({ id })));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => {
    server.close();
    traced.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (id: string, token?: string) => {
    const response = await fetch(`${url}/?id=${id}`, { headers: token ? { [TOKEN_HEADER]: token } : {} });
    return response.json() as Promise<unknown>;
  };
  const callsOf = async (grant: Grant) => {
    const token = signToken(secret, {
      purpose: "calls",
      sid: grant.sid,
      jti: randomId(),
      iat: Date.now(),
      exp: Date.now() + 60_000,
      for: grant.jti,
    });
    const response = await fetch(url, { headers: { [TOKEN_HEADER]: token } });
    return ((await response.json()) as { interactions: { input: unknown; answeredBy: unknown }[] }).interactions;
  };
  return { realRuns, get, callsOf };
}

const turn = (sid: string, response: unknown): Grant => ({
  purpose: "turn",
  sid,
  jti: randomId(),
  iat: Date.now(),
  exp: Date.now() + 60_000,
  strict: false,
  stubs: [{ id: `${sid}-rule`, tool: "lookup", outcome: { response } }],
});

test("a request with a token and one without, in the handler at the same moment: the stub answers only the first", async () => {
  const server = await rendezvousServer(2);
  const grant = turn("a", { source: "stub" });
  const [stubbed, plain] = await Promise.all([server.get("a", signToken(secret, grant)), server.get("b")]);
  expect(stubbed).toEqual({ source: "stub" });
  expect(plain).toEqual({ source: "real", id: "b" });
  expect(server.realRuns).toEqual(["b"]);
  expect(await server.callsOf(grant)).toEqual([
    expect.objectContaining({ input: { id: "a" }, answeredBy: { kind: "stub", ruleId: "a-rule", outcomeIndex: 0 } }),
  ]);
});

test("two sessions' requests at the same moment each get their own rules and their own trace", async () => {
  const server = await rendezvousServer(3);
  const [first, second] = [turn("first", { source: "first's stub" }), turn("second", { source: "second's stub" })];
  const answers = await Promise.all([
    server.get("1", signToken(secret, first)),
    server.get("2", signToken(secret, second)),
    server.get("3"),
  ]);
  expect(answers).toEqual([{ source: "first's stub" }, { source: "second's stub" }, { source: "real", id: "3" }]);
  expect(server.realRuns).toEqual(["3"]);
  expect((await server.callsOf(first)).map((call) => call.input)).toEqual([{ id: "1" }]);
  expect((await server.callsOf(second)).map((call) => call.input)).toEqual([{ id: "2" }]);
});
