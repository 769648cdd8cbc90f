// A deployed request's whole lifetime, on the four adapters, each a real AI SDK agent in a process of its
// own: a turn that ends in a 5xx keeps the server's calls; strict and the stubs hold until the request's
// work settles, not until the client gives up; work left running after the response meets the request's
// rules; the server's own HTTP is in the turn.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type MockModelRequest } from "tooltrace";
import { createLlmAnswer, type LoopbackServer, serveOnLoopback } from "tooltrace/wire";
import { remoteAgent } from "tooltrace/server";
import { type DeployedAgent, startDeployedAgent } from "./deployed-server.js";
import { taskModel } from "./task-model.js";

const secret = randomBytes(32).toString("base64url");
const FRAMEWORKS = ["hono", "express", "node", "fetch"] as const;
/** The model takes this long per call when the message says "slowly". */
const SLOW_MS = 800;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let upstream: LoopbackServer;
const servers = new Map<string, DeployedAgent>();
beforeAll(async () => {
  upstream = await serveOnLoopback(
    createLlmAnswer({
      respond: async (request: MockModelRequest) => {
        if (/slowly/i.test(request.lastUserMessage ?? "")) await sleep(SLOW_MS);
        return taskModel(request);
      },
    }).answer,
  );
  const started = await Promise.all(
    FRAMEWORKS.map((framework) => startDeployedAgent(framework, upstream.url, { TOOLTRACE_SECRET: secret })),
  );
  for (const [i, framework] of FRAMEWORKS.entries()) servers.set(framework, started[i] as DeployedAgent);
}, 90_000);
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
  await upstream?.close();
});

const tasksInTurn = (label: string) => ({
  id: "seq",
  tool: "list_tasks",
  outcomes: [{ response: { tasks: [{ id: "a", title: `${label} A` }] } }, { response: { tasks: [{ id: "b", title: `${label} B` }] } }],
});

describe.each(FRAMEWORKS)("a deployed agent on %s", (framework) => {
  const server = () => servers.get(framework) as DeployedAgent;
  const agent = (path: string) => remoteAgent({ url: `${server().url}${path}`, secret });

  test("a turn that ends in a 5xx keeps the server's calls: the sequence moves on, no rule is falsely unused", async () => {
    await server().realCalls();
    const failing = createSession({ agent: agent("/fail"), stubs: [tasksInTurn(framework)], unusedRules: "error" });
    const failed = await failing.send("What tasks do I have?");
    expect(failed.status).toBe("failed");
    expect(failed.error?.message).toContain("500");
    expect(failed.toolCalls.map((call) => [call.tool, call.answeredBy])).toEqual([
      ["list_tasks", { kind: "stub", ruleId: "seq", outcomeIndex: 0 }],
    ]);
    const session = createSession({ agent: agent("/chat"), stubs: [tasksInTurn(framework)] });
    await session.send("What tasks do I have?").catch(() => undefined);
    expect(await server().realCalls()).toEqual([]);
  }, 30_000);

  test("strict holds after the client gave up: the loop that carries on never runs a real tool", async () => {
    await server().realCalls();
    const session = createSession({ agent: agent("/chat"), strict: true, stubs: [tasksInTurn(framework)] });
    // The model takes 800 ms a call: the client gives up at 400 ms, while the server's loop goes on to ask
    // for complete_task, which no rule answers.
    const turn = await session.send("Slowly: what tasks do I have? Then complete a", { timeoutMs: 400 });
    expect(turn.status).toBe("failed");
    await sleep(3 * SLOW_MS + 600);
    expect(await server().realCalls()).toEqual([]);
  }, 30_000);

  test("work the handler leaves running after its response meets the request's rules, never the real tool", async () => {
    await server().realCalls();
    const session = createSession({ agent: agent("/after"), strict: true });
    const turn = await session.send("go");
    expect(turn.text).toBe("answered; work left running");
    await sleep(400);
    expect(await server().realCalls()).toEqual([]);
    session.takeViolations();
  }, 30_000);

  test("the server's own HTTP is in the turn", async () => {
    const session = createSession({ agent: agent("/http") });
    const turn = await session.send("go");
    expect(turn.text).toMatch(/^the upstream lists \d+ models$/);
    expect(turn.httpCalls.map((call) => [call.method, call.url.replace(upstream.url, ""), call.statusCode])).toEqual([
      ["GET", "/v1/models", 200],
    ]);
  }, 30_000);
});
