import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateText, stepCountIs, tool } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, mockModel } from "tooltrace";
import { aiSdkAgent } from "tooltrace/ai-sdk";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { createTaskService } from "../fixtures/tasks.js";
import { runExecute } from "../fixtures/versions.js";
import { nodeGet } from "../fixtures/node-get.js";

// A fake upstream on 127.0.0.1: it counts every request that reaches it.
let upstream: Server;
let upstreamUrl: string;
const received: string[] = [];
let llm: LlmServer;
beforeAll(async () => {
  upstream = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ weather: "sunny" }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  llm = startLlmServer();
});
afterAll(async () => {
  llm.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe("strict mode: a tool call the model asked for that never reached tooltrace", () => {
  test("a tool the session was not given ran, and its result went back to the model: a violation", async () => {
    const { tools, tasks } = createTaskService();
    const model = mockModel([{ toolCalls: [{ name: "complete_task", input: { task_id: "real-1" } }] }, "Done."]);
    // The agent's tools are not the ones given to the session.
    const session = createSession({ agent: aiSdkAgent({ model, tools }), tools: {}, strict: true });
    const turn = await session.send("Complete real-1");
    expect(tasks.has("real-1")).toBe(false); // it could not be stopped: tooltrace never saw it
    expect(turn).toHaveCalledTool("complete_task", { output: { success: true } });
    expect(turn.toolCalls[0]?.answeredBy).toEqual({ kind: "outside" });
    expect(turn).not.toSucceed();
    expect(session.takeViolations()).toEqual([
      "the model asked for complete_task, and a result came back, but no call of complete_task reached tooltrace: is its executor among the session's tools?",
    ]);
  });

  test("a model tool call the agent never ran or answered, by the end of the turn: a violation", async () => {
    const model = mockModel({ toolCalls: [{ name: "list_tasks" }] });
    const offered = { list_tasks: tool({ inputSchema: z.object({}) }) };
    const session = createSession({
      agent: async (message) => {
        const result = await generateText({
          model,
          // Frozen: its executor cannot be caught where the AI SDK receives it, so only the ledger can see it.
          tools: { ...offered, list_tasks: Object.freeze(tool({ inputSchema: z.object({}), execute: async () => "hidden" })) },
          prompt: message,
          stopWhen: stepCountIs(1),
        });
        return result.text;
      },
      tools: {},
      strict: true,
    });
    const turn = await session.send("go");
    expect(turn).toHaveCalledTool("list_tasks", { status: "rejected", count: 1 });
    expect(session.takeViolations()).toEqual([
      "the model asked for list_tasks({}), but no call of list_tasks reached tooltrace: is its executor among the session's tools?",
    ]);
  });

  test("without strict mode the same turn is traced, not failed", async () => {
    const { tools } = createTaskService();
    const model = mockModel([{ toolCalls: [{ name: "list_tasks" }] }, "Done."]);
    const session = createSession({ agent: aiSdkAgent({ model, tools }), tools: {} });
    const turn = await session.send("go");
    expect(turn).toSucceed();
    expect(turn).toHaveCalledTool("list_tasks", { output: { tasks: [{ id: "real-1" }] } });
  });
});

describe("strict mode: executors another session patched", () => {
  test("a tool this session was not given is refused even while another session holds its spy", async () => {
    const { tools, tasks } = createTaskService();
    const holder = createSession({ agent: () => "", tools, unusedRules: "ignore" });
    const session = createSession({
      tools: {},
      strict: true,
      agent: async () => {
        try {
          await runExecute(tools.complete_task, { task_id: "real-1" }, "x");
          return "ran";
        } catch (error) {
          return (error as Error).message;
        }
      },
    });
    const turn = await session.send("go");
    holder.close();
    expect(tasks.has("real-1")).toBe(true);
    expect(turn.text).toContain("strict mode: complete_task is not among session");
    expect(turn).toHaveCalledTool("complete_task", { status: "rejected" });
    expect(session.takeViolations()).toHaveLength(1);
  });
});

describe("HTTP exchanges are interactions too", () => {
  test("strict: a tool's request to the network never goes out, from fetch or node:http, and fails the test", async () => {
    const tools = {
      weather: async (_input: { city: string }) => (await fetch(`${upstreamUrl}/weather`)).json(),
      forecast: async (_input: { city: string }) => nodeGet(`${upstreamUrl}/forecast`),
    };
    const session = createSession({
      tools,
      strict: true,
      stubs: [
        { id: "w", tool: "weather", outcome: { response: { weather: "stubbed" } } },
        { id: "f", tool: "forecast", outcome: { response: "stubbed" } },
      ],
      agent: async () => {
        // The agent calls the network directly too, and swallows the errors.
        const direct = await fetch(`${upstreamUrl}/direct`).then(
          () => "went out",
          (error: Error) => `refused: ${error.message}`,
        );
        const viaNode = await nodeGet(`${upstreamUrl}/node`).then(
          () => "went out",
          (error: Error) => `refused: ${error.message}`,
        );
        return `${JSON.stringify(await tools.weather({ city: "Oslo" }))} ${await tools.forecast({ city: "Oslo" })} ${direct} ${viaNode}`;
      },
    });
    const turn = await session.send("weather?");
    expect(received).toEqual([]);
    expect(turn.text).toMatch(/^\{"weather":"stubbed"\} stubbed refused: .+ refused: .+$/);
    expect(turn.httpCalls.map((call) => [call.method, call.url.replace(upstreamUrl, ""), call.status, call.answeredBy?.kind])).toEqual([
      ["GET", "/direct", "rejected", "strict"],
      ["GET", "/node", "rejected", "strict"],
    ]);
    expect(session.takeViolations()).toEqual([
      expect.stringContaining(`strict mode: GET ${upstreamUrl}/direct would have gone out to the network`),
      expect.stringContaining(`strict mode: GET ${upstreamUrl}/node would have gone out`),
    ]);
  });

  test("not strict: the exchange goes out and is traced with its status, linked to the tool call that made it", async () => {
    const tools = { weather: async (_input: { city: string }) => (await fetch(`${upstreamUrl}/weather?city=Oslo`)).json() };
    const session = createSession({ tools, agent: async () => JSON.stringify(await tools.weather({ city: "Oslo" })) });
    const turn = await session.send("weather?");
    expect(turn.text).toBe('{"weather":"sunny"}');
    expect(received).toEqual(["GET /weather?city=Oslo"]);
    received.length = 0;
    const [http] = turn.httpCalls;
    expect(http).toMatchObject({
      kind: "http",
      method: "GET",
      statusCode: 200,
      status: "completed",
      answeredBy: { kind: "real" },
      parentSeq: turn.toolCalls[0]?.seq,
    });
    expect(session.interactions.map((record) => record.kind)).toEqual(["tool", "http"]);
  });
});

describe("a strict refusal says which rule came closest and why it missed", () => {
  test("the closest rule, its first failed constraint with its JSON pointer, and what the call had there", async () => {
    const tools = { lookup_order: async (_input: { orderId: string; region: string }) => ({ status: "real" }) };
    const session = createSession({
      tools,
      strict: true,
      stubs: [
        { id: "eu", tool: "lookup_order", match: { region: { const: "us" }, orderId: { const: "A1" } }, outcome: { response: {} } },
        { id: "a17", tool: "lookup_order", match: { region: { const: "eu" }, orderId: { const: "A17" } }, outcome: { response: {} } },
      ],
      agent: async () => String(await tools.lookup_order({ orderId: "A18", region: "eu" }).catch((error: Error) => error.message)),
    });
    const turn = await session.send("Where is A18?");
    expect(turn.text).toBe(
      '[tooltrace] strict mode: no stub rule matched lookup_order({"orderId":"A18","region":"eu"}), so the real tool did not run. The closest rule, "a17", failed at /match/orderId: const "A17" (the call has "A18"). Add a rule for this call, let this tool run for real: `createSession({ allowTools: ["lookup_order"] })`, or create the session without `strict: true`.',
    );
    session.takeViolations();
  });
});
