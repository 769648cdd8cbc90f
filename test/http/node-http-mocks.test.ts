import { WebClient } from "@slack/web-api";
import axios from "axios";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { addressBeyondLoopback, type CountingUpstream, startCountingUpstream } from "../fixtures/counting-process.js";

// Clients on node:http (axios, and Slack's WebClient on it) ignored the session's HTTP mocks: the hermetic
// refusal said "answer it with an HTTP mock" beside the mock, and the client retried until its timeout.
let outside: CountingUpstream;
beforeAll(async () => {
  outside = await startCountingUpstream(addressBeyondLoopback());
}, 30_000);
afterAll(() => outside.stop());

const slack = [
  { id: "post", method: "POST", url: "https://slack.com/api/chat.postMessage", outcome: { status: 200, json: { ok: true, ts: "1.2" } } },
];

describe("HTTP mocks and strict mode for clients on node:http, without MSW", () => {
  test("Slack's WebClient (axios, a form-encoded body) is answered by the session's mock, and toHaveRequested reads the form", async () => {
    const agent = async () => {
      const client = new WebClient("xoxb-test-token", { retryConfig: { retries: 0 } });
      const posted = await client.chat.postMessage({ channel: "C1", text: "Deploy done" });
      return String(posted.ts);
    };
    const session = createSession({ agent, tools: {}, http: slack, strict: true });
    const turn = await session.send("Post it");
    expect(turn).toSucceed();
    expect(turn.text).toBe("1.2");
    expect(turn).toHaveRequested("/api/chat.postMessage", {
      method: "POST",
      body: expect.objectContaining({ channel: "C1", text: "Deploy done" }),
    });
    expect(turn.httpCalls[0]?.answeredBy).toEqual({ kind: "stub", ruleId: "post", outcomeIndex: 0 });
  });

  test("axios to a host no mock answers, in a strict turn: refused at once, and nothing reaches the host", async () => {
    const from = outside.events.length;
    const session = createSession({
      agent: async () =>
        (await axios.get(`${outside.url}/orders`, { timeout: 5_000 }).catch((error: Error) => ({ data: error.message }))).data,
      tools: {},
      http: slack,
      strict: true,
    });
    const turn = await session.send("List the orders");
    expect(String(turn.text)).toContain("refused");
    expect(session.takeViolations()).toEqual([expect.stringContaining(`GET ${outside.url}/orders`)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outside.events.slice(from).filter((line) => line.startsWith("HTTP"))).toEqual([]);
  });

  test("a request outside every turn is left alone (the hermetic guard still refuses it beyond loopback)", async () => {
    createSession({ agent: () => "", tools: {}, http: slack }).close();
    const from = outside.events.length;
    const error = await axios.get(`${outside.url}/outside`, { timeout: 5_000 }).catch((failure: Error) => failure);
    expect(String(error)).toContain("refused");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outside.events.slice(from).filter((line) => line.startsWith("HTTP"))).toEqual([]);
    const { takeRefusals } = await import("tooltrace");
    takeRefusals();
  });
});

// The interceptor is shared with MSW's (whichever applied first holds it): a server started and closed before, or
// listening now, must leave node:http caught, once.
describe("beside tooltrace's MSW server, started and closed in any order", () => {
  for (const order of ["ours first", "msw first"] as const)
    test(`${order}: node:http in a strict turn is refused once, while MSW listens and after it closed`, async () => {
      const { startLlmServer } = await import("tooltrace/msw");
      const strictGet = async (path: string) => {
        const session = createSession({
          agent: async () =>
            (await axios.get(`${outside.url}${path}`, { timeout: 5_000 }).catch((error: Error) => ({ data: error.message }))).data,
          tools: {},
          strict: true,
        });
        await session.send("go");
        return session.takeViolations().filter((line) => line.includes(path));
      };
      if (order === "ours first") createSession({ agent: () => "", tools: {}, http: slack }).close();
      const first = startLlmServer();
      first.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
      const second = startLlmServer();
      try {
        expect(await strictGet(`/while-${order.replace(" ", "-")}`)).toHaveLength(1);
      } finally {
        second.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await strictGet(`/after-${order.replace(" ", "-")}`)).toHaveLength(1);
    });
});
