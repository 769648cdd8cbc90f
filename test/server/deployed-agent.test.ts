// The first "done when": a real AI SDK agent served by Hono in a child process on 127.0.0.1 is
// stubbed, traced and asserted on through `remoteAgent`, strict mode and a `throw` outcome included.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createSession, type ToolStub } from "tooltrace";
import { createLlmAnswer, type LoopbackServer, serveOnLoopback } from "tooltrace/wire";
import { remoteAgent } from "tooltrace/server";
import { type DeployedAgent, startDeployedAgent } from "./deployed-server.js";
import { taskModel } from "./task-model.js";

const secret = randomBytes(32).toString("base64url");
let upstream: LoopbackServer;
let server: DeployedAgent;

beforeAll(async () => {
  upstream = await serveOnLoopback(createLlmAnswer({ respond: taskModel }).answer);
  server = await startDeployedAgent("hono", upstream.url, { TOOLTRACE_SECRET: secret });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});
beforeEach(async () => {
  await server.realCalls();
});

const stubbedTasks: ToolStub = {
  id: "tasks",
  tool: "list_tasks",
  outcome: {
    response: {
      tasks: [
        { id: "plants", title: "Water the plants" },
        { id: "mum", title: "Call mum" },
      ],
    },
  },
};
const agent = (path = "/chat") => remoteAgent({ url: `${server.url}${path}`, secret });

describe("a Hono server with a real AI SDK agent, in another process", () => {
  test("a stub answers on the server (the real tool never runs), and the turn holds the server's tool and model calls", async () => {
    const session = createSession({ agent: agent(), stubs: [stubbedTasks] });
    const turn = await session.send("What tasks do I have?");
    // The stub's response went through the server's real AI SDK loop to the model, which answered from it.
    expect(turn.text).toBe("You have 2 tasks: Water the plants, Call mum.");
    expect(await server.realCalls()).toEqual([]);
    expect(turn).toHaveCalledTool("list_tasks", { count: 1 });
    expect(turn).toHaveNoFailedActions();
    expect(turn.toolCalls[0]).toMatchObject({
      tool: "list_tasks",
      status: "completed",
      answeredBy: { kind: "stub", ruleId: "tasks", outcomeIndex: 0 },
      output: {
        tasks: [
          { id: "plants", title: "Water the plants" },
          { id: "mum", title: "Call mum" },
        ],
      },
    });
    // The server's model calls, through the wrapped provider model, in the order they happened.
    expect(turn).toHaveModelCalls(2);
    expect(turn.modelCalls.map((call) => [call.provider, call.model, call.answeredBy?.kind])).toEqual([
      ["openai.chat", "gpt-4.1-mini", "real"],
      ["openai.chat", "gpt-4.1-mini", "real"],
    ]);
    expect(turn.modelCalls[0]?.reply.toolCalls.map((call) => call.name)).toEqual(["list_tasks"]);
    const [first, tool, second] = [turn.modelCalls[0], turn.toolCalls[0], turn.modelCalls[1]];
    expect(first && tool && second && first.seq < tool.seq && tool.seq < second.seq).toBe(true);
    // On the session's clock: inside the turn, after its start.
    expect(tool?.start).toBeGreaterThanOrEqual(0);
    expect(tool?.durationMs).toBeGreaterThanOrEqual(0);
    expect(session.unusedRuleIds()).toEqual([]);
    expect(session.ruleUsage().get("tasks")).toBe(1);
  });

  test("a `throw` outcome fails the action on the server: the agent recovers, the model sees the error, the test sees a failed action", async () => {
    const session = createSession({
      agent: agent(),
      stubs: [{ id: "down", tool: "complete_task", outcome: { throw: { name: "ServiceError", message: "task service down" } } }],
    });
    const turn = await session.send("Complete milk");
    expect(turn.status).toBe("completed");
    expect(turn.text).toContain("task service down");
    expect(turn).toHaveFailedAction("complete_task");
    expect(turn.toolCalls[0]).toMatchObject({
      status: "failed",
      input: { task_id: "milk" },
      error: { name: "ServiceError", message: "task service down" },
      answeredBy: { kind: "stub", ruleId: "down" },
    });
    expect(await server.realCalls()).toEqual([]);
  });

  test("strict: the server refuses a call no rule matches (the tool never runs), and the turn fails the test as it would locally", async () => {
    const session = createSession({ agent: agent(), stubs: [stubbedTasks], strict: true });
    const turn = await session.send("Complete milk");
    expect(await server.realCalls()).toEqual([]);
    expect(turn.toolCalls[0]).toMatchObject({ tool: "complete_task", status: "rejected", answeredBy: { kind: "strict" } });
    expect(turn).toHaveFailedAction("complete_task");
    expect(turn.violations).toEqual([expect.stringMatching(/^strict mode: no stub rule matched complete_task\(\{"task_id":"milk"\}\)/)]);
    // What would fail the test when it ends (taken here, since this test expects it).
    expect(session.takeViolations()).toEqual([expect.stringContaining("strict mode: no stub rule matched complete_task")]);
    // A strict session with only matched calls has nothing to report.
    const clean = await session.send("What tasks do I have?");
    expect(clean.violations).toEqual([]);
    expect(clean.text).toBe("You have 2 tasks: Water the plants, Call mum.");
  });

  test("a rule's outcomes go in turn across the session's turns, as for a local agent", async () => {
    const session = createSession({
      agent: agent(),
      stubs: [
        {
          id: "tasks",
          tool: "list_tasks",
          outcomes: [{ response: { tasks: [{ title: "A" }, { title: "B" }] } }, { response: { tasks: [{ title: "B" }] } }],
        },
      ],
    });
    const first = await session.send("What tasks do I have?");
    const second = await session.send("What tasks do I have now?");
    const third = await session.send("And now, which tasks?");
    expect([first.text, second.text, third.text]).toEqual(["You have 2 tasks: A, B.", "You have 1 tasks: B.", "You have 1 tasks: B."]);
    expect(session.toolCalls.map((call) => call.answeredBy)).toEqual([
      { kind: "stub", ruleId: "tasks", outcomeIndex: 0 },
      { kind: "stub", ruleId: "tasks", outcomeIndex: 1 },
      { kind: "stub", ruleId: "tasks", outcomeIndex: 1 },
    ]);
    expect(session.ruleUsage().get("tasks")).toBe(3);
    // The history went to the server: its second turn's model call saw the first turn's exchange.
    expect(second.modelCalls[0]?.request).toMatchObject({ lastUserMessage: "What tasks do I have now?" });
    expect(JSON.stringify(second.modelCalls[0]?.request)).toContain("You have 2 tasks: A, B.");
  });

  test("with no rule for a tool and no strict mode, the real tool runs on the server and is traced as real", async () => {
    const session = createSession({ agent: agent(), stubs: [] });
    const turn = await session.send("What tasks do I have?");
    expect(await server.realCalls()).toEqual(["list_tasks"]);
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "real" });
    expect(turn.text).toBe("You have 1 tasks: Buy milk (from the real database).");
  });

  test("a streamed reply (the AI SDK's UI message stream through Hono): calls made while the body streams are stubbed and traced", async () => {
    const session = createSession({ agent: agent("/stream"), stubs: [stubbedTasks], strict: true });
    const turn = await session.send("What tasks do I have?");
    expect(turn.text).toBe("You have 2 tasks: Water the plants, Call mum.");
    expect(turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["stub"]);
    expect(turn.modelCalls.map((call) => call.streamed)).toEqual([true, true]);
    expect(turn.modelCalls[1]?.reply.text).toBe("You have 2 tasks: Water the plants, Call mum.");
    expect(await server.realCalls()).toEqual([]);
  });

  test("a rule naming a tool the server does not have is refused by the server, with the same message createSession gives", async () => {
    const session = createSession({
      agent: agent(),
      stubs: [{ id: "typo", tool: "list_taks", outcome: { response: {} } }],
      unusedRules: "ignore",
    });
    const turn = await session.send("What tasks do I have?");
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toContain('stub rule "typo" at /tool: the session has no tool "list_taks"');
    expect(turn.error?.message).toContain('did you mean "list_tasks"?');
    expect(await server.realCalls()).toEqual([]);
  });
});
