// The second "done when": requests without a token, with a forged, expired or replayed token, and
// with a token for another session are each refused with a 403 and a log line, and none of them gets a stub
// or runs a tool. The server is Express with a real AI SDK agent, in a child process, taking only tokened
// requests (`requireToken`); a server that also takes ordinary traffic serves a request without a token as
// if the adapter were not there.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createLlmAnswer, type LlmAnswer, type LoopbackServer, serveOnLoopback } from "tooltrace/wire";
import { GATE_HEADER, TOKEN_HEADER } from "tooltrace/server";
import { type Grant, randomId, signToken } from "../../src/server/token.js";
import { type DeployedAgent, startDeployedAgent } from "./deployed-server.js";
import { taskModel } from "./task-model.js";

const secret = randomBytes(32).toString("base64url");
let llm: LlmAnswer;
let upstream: LoopbackServer;
let gated: DeployedAgent;
let open: DeployedAgent;

beforeAll(async () => {
  llm = createLlmAnswer({ respond: taskModel });
  upstream = await serveOnLoopback(llm.answer);
  [gated, open] = await Promise.all([
    startDeployedAgent("express", upstream.url, { TOOLTRACE_SECRET: secret, REQUIRE_TOKEN: "1" }),
    startDeployedAgent("hono", upstream.url, { TOOLTRACE_SECRET: secret }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([gated?.stop(), open?.stop()]);
  await upstream?.close();
});

const stubs = [{ id: "done", tool: "complete_task", outcome: { response: { success: "stubbed" } } }];
const now = () => Date.now();
const turnGrant = (overrides: Partial<Grant> = {}): Grant =>
  ({ purpose: "turn", sid: "session-a", jti: randomId(), iat: now(), exp: now() + 60_000, strict: false, stubs, ...overrides }) as Grant;

async function post(server: DeployedAgent, token: string | undefined) {
  const response = await fetch(`${server.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token === undefined ? {} : { [TOKEN_HEADER]: token }) },
    body: JSON.stringify({ message: "Complete milk" }),
  });
  return {
    status: response.status,
    gate: response.headers.get(GATE_HEADER),
    body: (await response.json()) as { text?: string; error?: string },
  };
}

/** Sends `token`, and asserts the gate refused it: a 403 it answered itself, no model call, no tool run, one log line. */
async function expectRefused(token: string | undefined, why: RegExp) {
  const modelCalls = llm.calls.length;
  const logged = gated.logs.length;
  const answer = await post(gated, token);
  expect(answer).toEqual({ status: 403, gate: "1", body: { error: expect.stringMatching(why) } });
  // The handler never ran: the model was not asked, no tool ran, and so no stub can have answered anything.
  expect(llm.calls.length).toBe(modelCalls);
  expect(await gated.realCalls()).toEqual([]);
  // The child's stderr may reach this process after its response did.
  await vi.waitFor(() => expect(gated.logs.length).toBeGreaterThan(logged));
  const lines = gated.logs.slice(logged);
  expect(lines).toEqual([expect.stringMatching(new RegExp(`refused POST "/chat": .*${why.source}.*\\(403\\)`))]);
  // The log says why, never what the token or the secret was.
  expect(lines.join("\n")).not.toContain(secret);
  if (token !== undefined) expect(lines.join("\n")).not.toContain(token.slice(4, 40));
}

describe("a server taking only tokened requests (Express, requireToken)", () => {
  test("a request without a token is refused", async () => {
    await expectRefused(undefined, /no token/);
  });

  test("a forged token is refused: signed with another secret, or a valid one with its rules changed", async () => {
    await expectRefused(signToken(randomBytes(32).toString("base64url"), turnGrant()), /forged/);
    const [version, , mac] = signToken(secret, turnGrant()).split(".");
    const other = signToken(secret, turnGrant({ stubs: [] } as Partial<Grant>)).split(".")[1];
    await expectRefused(`${version}.${other}.${mac}`, /forged/);
    await expectRefused("tt1.not-a-token", /malformed/);
  });

  test("an expired token is refused, and so is one that claims a lifetime over the limit", async () => {
    await expectRefused(signToken(secret, turnGrant({ iat: now() - 120_000, exp: now() - 60_000 })), /expired/);
    await expectRefused(signToken(secret, turnGrant({ exp: now() + 3_600_000 })), /lifetime over the limit/);
  });

  test("a valid token is served once, with its stub; the same token again is refused as a replay", async () => {
    const token = signToken(secret, turnGrant());
    const served = await post(gated, token);
    expect(served).toEqual({ status: 200, gate: null, body: { text: 'complete_task said: {"success":"stubbed"}' } });
    expect(await gated.realCalls()).toEqual([]);
    await expectRefused(token, /used before \(a replay\)/);
  });

  test("the calls a request recorded are refused to a token for another session, and served to its own", async () => {
    const request = turnGrant({ sid: "session-a" });
    expect((await post(gated, signToken(secret, request))).status).toBe(200);
    const callsOf = (sid: string) =>
      signToken(secret, { purpose: "calls", sid, jti: randomId(), iat: now(), exp: now() + 60_000, for: request.jti });
    await expectRefused(callsOf("session-b"), /for another session/);
    const own = await fetch(`${gated.url}/chat`, { method: "POST", headers: { [TOKEN_HEADER]: callsOf("session-a") } });
    const calls = (await own.json()) as { interactions: { kind: string; tool?: string; answeredBy?: unknown }[] };
    expect(calls.interactions.filter((record) => record.kind === "tool")).toEqual([
      expect.objectContaining({ tool: "complete_task", answeredBy: { kind: "stub", ruleId: "done", outcomeIndex: 0 } }),
    ]);
  });
});

describe("a server that also takes ordinary traffic (Hono, the default)", () => {
  test("a request without a token is served as without the adapter: the real tool runs, no stub applies", async () => {
    const answer = await post(open, undefined);
    expect(answer).toEqual({ status: 200, gate: null, body: { text: 'complete_task said: {"success":true}' } });
    expect(await open.realCalls()).toEqual(["complete_task milk"]);
  });

  test("a token that is not valid is still refused there, and nothing runs", async () => {
    const modelCalls = llm.calls.length;
    const answer = await post(open, signToken(secret, turnGrant({ iat: now() - 120_000, exp: now() - 60_000 })));
    expect(answer.status).toBe(403);
    expect(llm.calls.length).toBe(modelCalls);
    expect(await open.realCalls()).toEqual([]);
  });
});
