import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession } from "tooltrace";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

test("closed sessions are garbage-collected: at least 99% of 300 that made tool calls (0 of 300 before)", async () => {
  let collected = 0;
  const registry = new FinalizationRegistry(() => {
    collected += 1;
  });
  // One tools record for every session, as a test file shares its agent's tools: its spies outlive each session.
  const plain = { lookup: async (input: { id: string }) => ({ id: input.id }) };
  const sdk = { search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ hits: [q] }) }) };
  for (let i = 0; i < 300; i++) {
    const tools = { ...plain, ...sdk };
    const session = createSession({
      tools,
      stubs: i % 2 === 0 ? [{ id: "lookup", tool: "lookup", outcome: { response: { id: "stub" } } }] : [],
      agent: async () => {
        await tools.lookup({ id: `order-${i}` });
        await tools.search.execute?.({ q: `q-${i}` }, { toolCallId: `call-${i}`, messages: [] });
        return "done";
      },
    });
    const turn = await session.send("go");
    expect(turn.toolCalls).toHaveLength(2);
    void session.route;
    session.close();
    registry.register(session, i);
  }
  for (let round = 0; round < 20 && collected < 297; round++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
  }
  expect(collected).toBeGreaterThanOrEqual(297);
});

describe("sessions a test leaves open are freed once the plugin closes them after the test", () => {
  let collected = 0;
  const registry = new FinalizationRegistry(() => {
    collected += 1;
  });
  const shared = { lookup: async (input: { id: string }) => ({ id: input.id }) };

  test("300 sessions, left open", async () => {
    for (let i = 0; i < 300; i++) {
      const session = createSession({ tools: shared, agent: async () => (await shared.lookup({ id: `${i}` })).id });
      await session.send("go");
      registry.register(session, i);
    }
  });

  test("are collected after their test ended", async () => {
    for (let round = 0; round < 20 && collected < 297; round++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      gc();
    }
    expect(collected).toBeGreaterThanOrEqual(297);
  });
});

test("a turn kept after its session closed does not keep the session: 400 sessions in one job (100 KB of history each) leave under 20 KB each", async () => {
  // No timer between the sessions: what a WeakRef would keep until the job ends stays kept (it did: 46 KB a test).
  const kept: unknown[] = [];
  const payload = "x".repeat(100_000);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 400; i++) {
    // The agent's history lives in the session's agent, not in the turn: what a kept session would keep.
    const tools = { fetch_page: async () => ({ status: 200 }) };
    const history: string[] = [];
    const session = createSession({
      tools,
      agent: async (message) => {
        history.push(message, JSON.stringify({ i, payload }), JSON.stringify(await tools.fetch_page()));
        return "read";
      },
    });
    kept.push(await session.send("go"));
    session.close();
  }
  gc();
  const perSession = (process.memoryUsage().heapUsed - before) / 400;
  expect(kept).toHaveLength(400);
  expect(perSession).toBeLessThan(20_000);
});
