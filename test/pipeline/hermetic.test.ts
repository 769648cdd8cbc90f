import { createServer } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer as createTcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, StubConfigError, useStrict } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { setPluginStrict } from "../../src/lifecycle/strict-default.js";
import { runInScope } from "../../src/lifecycle/scope.js";
import { nodeGet } from "../fixtures/node-get.js";

/** A fake upstream on 127.0.0.1: every request that reaches it is counted. */
const received: string[] = [];
const upstream = createServer((request, response) => {
  received.push(`${request.method} ${request.url}`);
  response.setHeader("content-type", "application/json");
  response.end(
    JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "gpt-4o-mini",
      choices: [{ index: 0, message: { role: "assistant", content: "live" }, finish_reason: "stop" }],
    }),
  );
});
/** A TCP listener standing in for an HTTPS upstream: it counts connections, so a TLS handshake never needs a certificate. */
let tlsConnections = 0;
const tlsUpstream = createTcpServer((socket) => {
  tlsConnections += 1;
  socket.destroy();
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
await new Promise<void>((resolve) => tlsUpstream.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
const tlsBase = `https://127.0.0.1:${(tlsUpstream.address() as AddressInfo).port}`;

// Created at import time, before tooltrace's MSW server starts: this client keeps the unpatched `fetch`.
const earlyClient = new OpenAI({ apiKey: "sk-early", baseURL: `${base}/v1`, maxRetries: 0 });

let server: LlmServer;
beforeAll(() => {
  server = startLlmServer();
});
afterAll(async () => {
  server.close();
  await new Promise((resolve) => upstream.close(resolve));
  await new Promise((resolve) => tlsUpstream.close(resolve));
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Runs `attempt` and says what happened, swallowing the error as a careless agent would. */
const settle = (attempt: () => Promise<unknown>) =>
  attempt().then(
    () => "went out",
    (error: Error) => `refused (${error.message.slice(0, 40)})`,
  );

describe("hermetic: during a strict run nothing reaches a fake upstream on 127.0.0.1", () => {
  test("fetch, node:http, node:https, a provider SDK created before interception, the real model, and a tool not given to the session", async () => {
    const lateClient = new OpenAI({ apiKey: "sk-late", maxRetries: 0 });
    const notGiven = { sync_crm: async () => (await fetch(`${base}/crm/sync`, { method: "POST", body: "{}" })).json() };
    const given = { lookup: async (_input: { id: string }) => (await fetch(`${base}/orders/1`)).json() };
    const session = createSession({
      tools: given,
      strict: true,
      upstream: base,
      stubs: [{ id: "order", tool: "lookup", outcome: { response: { id: "1", state: "stubbed" } } }],
      agent: async () => {
        const outcomes = [
          await settle(() => fetch(`${base}/direct`)),
          await settle(() => nodeGet(`${base}/node-http`)),
          await settle(() => nodeGet(`${tlsBase}/node-https`, httpsRequest)),
          await settle(() => earlyClient.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] })),
          await settle(() => lateClient.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] })),
          await settle(() => notGiven.sync_crm()),
        ];
        return `${JSON.stringify(await given.lookup({ id: "1" }))} ${outcomes.join(" | ")}`;
      },
    });
    const turn = await session.send("go");

    expect(received).toEqual([]);
    expect(tlsConnections).toBe(0);
    expect(turn.text.startsWith('{"id":"1","state":"stubbed"}')).toBe(true);
    expect(turn.text).not.toContain("went out");
    const violations = session.takeViolations();
    expect(violations).toEqual([
      expect.stringContaining(`strict mode: GET ${base}/direct would have gone out to the network`),
      expect.stringContaining(`strict mode: GET ${base}/node-http would have gone out`),
      expect.stringContaining(`strict mode: GET ${tlsBase}/node-https would have gone out`),
      // msw 2 patches `fetch`, so the guard under it refuses the early client; msw 3 intercepts below it and sees the request itself.
      expect.stringMatching(
        new RegExp(
          `strict mode: POST ${escape(base)}/v1/chat/completions (went out through a \`fetch\` that tooltrace's MSW server never saw|would have gone out to the network)`,
        ),
      ),
      expect.stringContaining("strict mode: a call to the real model (openai.chat gpt-4o-mini) would have gone out to the upstream"),
      expect.stringContaining(`strict mode: POST ${base}/crm/sync would have gone out`),
    ]);
    // The request the MSW server never saw is in the trace too, refused.
    expect(turn.httpCalls.map((call) => [call.method, call.url.replace(base, "").replace(tlsBase, ""), call.answeredBy?.kind])).toEqual([
      ["GET", "/direct", "strict"],
      ["GET", "/node-http", "strict"],
      ["GET", "/node-https", "strict"],
      ["POST", "/v1/chat/completions", "strict"],
      ["POST", "/crm/sync", "strict"],
    ]);
  });

  test("not strict, the same early client goes out and the guard lets it: the guard refuses only for strict sessions", async () => {
    const session = createSession({
      tools: {},
      agent: async () =>
        (await earlyClient.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] })).choices[0]
          ?.message.content ?? "",
    });
    const turn = await session.send("go");
    expect(turn.text).toBe("live");
    expect(received).toEqual(["POST /v1/chat/completions"]);
    received.length = 0;
  });
});

describe("strict for a test, for the run, and for CI (TOOLTRACE_STRICT)", () => {
  test("useStrict() in a test makes that test's sessions strict unless they say otherwise", () => {
    useStrict();
    expect(createSession({ tools: {}, agent: () => "" }).strict).toBe(true);
    expect(createSession({ tools: {}, agent: () => "", strict: false }).strict).toBe(false);
  });

  test("it ends with its test; the plugin's default applies to every test, and useStrict() outside a test wins over it", () => {
    expect(createSession({ tools: {}, agent: () => "" }).strict).toBe(false);
    setPluginStrict(true);
    try {
      expect(createSession({ tools: {}, agent: () => "" }).strict).toBe(true);
      // A setup file's useStrict(false) runs outside any test: the run's default, over the plugin's.
      runInScope(undefined, () => useStrict(false));
      expect(createSession({ tools: {}, agent: () => "" }).strict).toBe(false);
    } finally {
      setPluginStrict(undefined);
      runInScope(undefined, () => useStrict(undefined));
    }
  });

  test("TOOLTRACE_STRICT=1 makes every session strict, even one that says strict: false, and refuses recording", () => {
    process.env.TOOLTRACE_STRICT = "1";
    try {
      expect(createSession({ tools: {}, agent: () => "", strict: false }).strict).toBe(true);
      expect(() => createSession({ tools: {}, agent: () => "", cassette: { mode: "record", path: "/tmp/never-written.json" } })).toThrow(
        /TOOLTRACE_STRICT=1 lets nothing go live/,
      );
      process.env.TOOLTRACE_STRICT = "yes";
      expect(() => createSession({ tools: {}, agent: () => "" })).toThrow(StubConfigError);
    } finally {
      delete process.env.TOOLTRACE_STRICT;
    }
  });

  test("without MSW a strict session is caught under fetch: an unmocked request is refused and recorded, a mock answers, nothing arrives", async () => {
    server.close();
    try {
      const before = received.length;
      const session = createSession({
        tools: {},
        strict: true,
        http: [{ id: "mocked", url: `${base}/mocked`, outcome: { json: { from: "mock" } } }],
        agent: async () => {
          const mocked = await (await fetch(`${base}/mocked`)).text();
          const refused = await settle(() => fetch(`${base}/unmocked`));
          return `${mocked} | ${refused}`;
        },
      });
      const turn = await session.send("go");
      expect(turn.text).toBe('{"from":"mock"} | refused (fetch failed)');
      expect(turn.httpCalls.map((call) => [call.url.replace(base, ""), call.status, call.answeredBy?.kind])).toEqual([
        ["/mocked", "completed", "stub"],
        ["/unmocked", "rejected", "strict"],
      ]);
      expect(session.takeViolations()).toEqual([
        expect.stringContaining(`strict mode: GET ${base}/unmocked would have gone out to the network`),
      ]);
      expect(received.length).toBe(before);
    } finally {
      server = startLlmServer();
    }
  });
});
