// With tooltrace's MSW server running in the test's process (the plugin's `llm: true`), the remote agent's
// own requests are not calls of the turn's: the turn holds what the server recorded, and nothing else.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";
import { remoteAgent, tooltraceServer } from "tooltrace/server";

const secret = randomBytes(32).toString("base64url");
const tools = { lookup: async (input: { id: string }) => ({ id: input.id, source: "real" }) };
const traced = tooltraceServer({ tools, secret, log: () => undefined });
let llm: LlmServer;
let server: Server;
let url: string;

beforeAll(async () => {
  llm = startLlmServer();
  server = createServer(
    traced.node(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      const { message } = JSON.parse(body) as { message: string };
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ text: JSON.stringify(await tools.lookup({ id: message })) }));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`;
});
afterAll(() => {
  server.close();
  traced.close();
  llm.close();
});

test("the turn's HTTP calls are the server's, not the agent's own requests to it", async () => {
  const session = createSession({
    agent: remoteAgent({ url, secret }),
    stubs: [{ id: "s", tool: "lookup", outcome: { response: { source: "stub" } } }],
  });
  const turn = await session.send("a1");
  expect(turn.text).toBe('{"source":"stub"}');
  expect(turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["stub"]);
  expect(turn.httpCalls).toEqual([]);
});
