import Anthropic from "@anthropic-ai/sdk";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import OpenAI from "openai";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, StubConfigError, type CassetteFile, type MockModelInput } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";
import { anthropicAgent, openaiChatAgent, openaiResponsesAgent } from "../fixtures/sdk-agents.js";
import { opaque, raw, viaAiSdk, type Setup } from "../fixtures/sdk-cases.js";
import type { plainTaskTools } from "../fixtures/plain-task-tools.js";
import { taskResponder } from "../fixtures/task-responder.js";
import { taskStubs } from "../fixtures/tasks.js";
import { runTasksExample } from "../fixtures/tasks-example.js";

const OPENAI_KEY = "sk-proj-Zx81c4f0a9e27b6d";
const ANTHROPIC_KEY = "sk-ant-api03-7e1b8d3c6f4f9c2a";
const GEMINI_KEY = "AIzaSyC4f0a9e27b6d7e1b8d3c6f4f9c2a01234";
const KEYS: Record<string, string> = { "anthropic.messages": ANTHROPIC_KEY, "google.gemini": GEMINI_KEY };

let wire: LlmServer;
beforeAll(() => {
  // The wire mock catches the SDKs' requests to the providers; with `upstream` a session sends them on.
  wire = startLlmServer();
});
afterAll(() => wire.close());

/** A fake LLM provider on 127.0.0.1: the three APIs, JSON and streaming, counting what reaches it. */
async function fakeProvider(respond: MockModelInput = taskResponder, models?: string[]) {
  const llm = createLlmAnswer({ respond, ...(models ? { models } : {}) });
  const seen: { url: string; authorization: string | null; apiKey: string | null; body: string }[] = [];
  const server = await serveOnLoopback(async (request) => {
    seen.push({
      url: request.url,
      authorization: request.headers.get("authorization"),
      apiKey: request.headers.get("x-api-key") ?? request.headers.get("x-goog-api-key"),
      body: await request.clone().text(),
    });
    return llm.answer(request);
  });
  return { url: server.url, seen, close: () => server.close() };
}

function cassettePath(): string {
  return join(mkdtempSync(join(tmpdir(), "tooltrace-llm-cassette-")), "tasks.json");
}

// The official SDKs keep the `fetch` they found when constructed, so they are built after MSW starts.
const openaiClient = () => new OpenAI({ apiKey: OPENAI_KEY, maxRetries: 0 });
const anthropicClient = () => new Anthropic({ apiKey: ANTHROPIC_KEY, maxRetries: 0 });
const aiOpenai = createOpenAI({ apiKey: OPENAI_KEY });
const aiAnthropic = createAnthropic({ apiKey: ANTHROPIC_KEY });
const aiGoogle = createGoogleGenerativeAI({ apiKey: GEMINI_KEY });

const cases: [string, Setup][] = [
  ["openai SDK, chat completions", raw((t) => opaque(openaiChatAgent(openaiClient(), t, false)), "openai.chat")],
  ["openai SDK, chat completions, streaming", raw((t) => opaque(openaiChatAgent(openaiClient(), t, true)), "openai.chat")],
  ["openai SDK, responses, streaming", raw((t) => opaque(openaiResponsesAgent(openaiClient(), t, true)), "openai.responses")],
  ["anthropic SDK, messages", raw((t) => opaque(anthropicAgent(anthropicClient(), t, false)), "anthropic.messages")],
  ["anthropic SDK, messages, streaming", raw((t) => opaque(anthropicAgent(anthropicClient(), t, true)), "anthropic.messages")],
  ["AI SDK + @ai-sdk/openai (responses), generateText", viaAiSdk(aiOpenai("gpt-4.1"), "generate", "openai.responses")],
  ["AI SDK + @ai-sdk/openai (chat), streamText", viaAiSdk(aiOpenai.chat("gpt-4o-mini"), "stream", "openai.chat")],
  ["AI SDK + @ai-sdk/anthropic, streamText", viaAiSdk(aiAnthropic("claude-sonnet-4-5"), "stream", "anthropic.messages")],
  ["AI SDK + @ai-sdk/google, generateText", viaAiSdk(aiGoogle("gemini-2.5-flash"), "generate", "google.gemini")],
  ["AI SDK + @ai-sdk/google, streamText", viaAiSdk(aiGoogle("gemini-2.5-flash"), "stream", "google.gemini")],
];

describe.each(cases)("LLM exchanges recorded against a local provider, replayed with it stopped: %s", (_name, setup) => {
  test("the same conversation replays hermetically, in strict mode, and no API key reaches the file", async () => {
    const provider = await fakeProvider();
    const path = cassettePath();
    const recording = setup();
    const recorder = createSession({
      agent: recording.agent,
      tools: recording.tools,
      stubs: taskStubs,
      upstream: provider.url,
      cassette: { mode: "record", path },
    });
    const [first, second] = await runTasksExample(recorder);
    recorder.close();
    // Every model call went to the provider, with the client's own key, and came back decoded into the trace.
    expect(provider.seen).toHaveLength(5);
    expect(
      provider.seen.every((request) => (request.authorization ?? request.apiKey ?? "").includes(KEYS[recording.provider] ?? OPENAI_KEY)),
    ).toBe(true);
    expect(first.modelCalls.map((call) => [call.provider, call.answeredBy?.kind])).toEqual([
      [recording.provider, "real"],
      [recording.provider, "real"],
    ]);
    expect(first.modelCalls[0]?.reply.toolCalls.map((call) => call.name)).toEqual(["list_tasks"]);
    expect(second.modelCalls[0]?.reply.toolCalls).toMatchObject([{ name: "complete_task", input: { task_id: "milk" } }]);
    expect(first.usage.totalTokens).toBeGreaterThan(0);
    await provider.close();

    const text = readFileSync(path, "utf8");
    const file = JSON.parse(text) as CassetteFile;
    expect(file.llm?.map((entry) => [entry.api, entry.lastUserMessage])).toEqual([
      [recording.provider, "What tasks do I have?"],
      [recording.provider, "What tasks do I have?"],
      [recording.provider, "Complete Buy milk, then list my remaining tasks."],
      [recording.provider, "Complete Buy milk, then list my remaining tasks."],
      [recording.provider, "Complete Buy milk, then list my remaining tasks."],
    ]);
    // What the stubs answered is not in the file: the tools stay stubbed on replay.
    expect(file.tools).toEqual({});
    expect(text).not.toContain(OPENAI_KEY);
    expect(text).not.toContain(ANTHROPIC_KEY);
    expect(text).not.toContain(GEMINI_KEY);

    const replaying = setup();
    const replayer = createSession({
      agent: replaying.agent,
      tools: replaying.tools,
      stubs: taskStubs,
      upstream: provider.url,
      cassette: { mode: "replay", path },
      strict: true,
    });
    const [again, againSecond] = await runTasksExample(replayer);
    expect(replayer.close().violations).toEqual([]);
    expect(again.text).toBe(first.text);
    expect(againSecond.text).toBe(second.text);
    expect(againSecond.modelCalls.map((call) => call.answeredBy)).toEqual([
      { kind: "cassette", entry: 2 },
      { kind: "cassette", entry: 3 },
      { kind: "cassette", entry: 4 },
    ]);
    expect(provider.seen).toHaveLength(5);
  });
});

/** An OpenAI SDK agent whose tool calls a local issue tracker over HTTP. */
function issueAgent(tracker: { url: string }) {
  const tools = {
    lookup_issue: async ({ id }: Record<string, unknown>) =>
      (await fetch(`${tracker.url}/issues/${String(id)}`)).json() as Promise<unknown>,
  };
  const schemas = [
    {
      name: "lookup_issue",
      description: "Look an issue up.",
      parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
    },
  ] as unknown as ReturnType<typeof plainTaskTools>["schemas"];
  return { tools, agent: opaque(openaiChatAgent(openaiClient(), { tools, schemas }, false)) };
}

async function fakeTracker() {
  let hits = 0;
  const server = await serveOnLoopback(async (request) => {
    hits += 1;
    const id = new URL(request.url).pathname.split("/").at(-1);
    return Response.json({ id, title: `Issue ${id}`, state: "open" });
  });
  return { url: server.url, hits: () => hits, close: () => server.close() };
}

/** Looks issue 7 up; answers with what the tool said, or `finalText` when the tool result is in. */
const triage =
  (finalText: string): MockModelInput =>
  (request) => {
    const last = request.messages.at(-1);
    if (last?.role !== "tool") return { toolCalls: [{ name: "lookup_issue", input: { id: "7" } }] };
    return `${finalText}: ${JSON.stringify(last.toolResults?.[0]?.output)}`;
  };

describe("replay a prefix, then go live (`replay: { upTo }`)", () => {
  test("the first N model exchanges and the tool calls inside them come from the cassette; the rest reaches today's model", async () => {
    const provider = await fakeProvider(triage("Recorded answer"));
    const tracker = await fakeTracker();
    const path = cassettePath();
    const recording = issueAgent(tracker);
    const recorder = createSession({ ...recording, upstream: provider.url, cassette: { mode: "record", path } });
    const recorded = await recorder.send("Triage issue 7");
    recorder.close();
    expect(recorded.text).toBe('Recorded answer: {"id":"7","title":"Issue 7","state":"open"}');
    expect(tracker.hits()).toBe(1);
    const file = JSON.parse(readFileSync(path, "utf8")) as CassetteFile;
    expect(file.llm).toHaveLength(2);
    expect(Object.values(file.http)).toHaveLength(1);
    await provider.close();

    // Today's model answers differently; the tracker is still up, and must not be called for the prefix.
    const today = await fakeProvider(triage("Today's answer"));
    const replaying = issueAgent(tracker);
    const session = createSession({ ...replaying, upstream: today.url, cassette: { replay: { upTo: 1 }, path } });
    const turn = await session.send("Triage issue 7");
    expect(session.close().violations).toEqual([]);
    expect(turn.modelCalls.map((call) => call.answeredBy?.kind)).toEqual(["cassette", "real"]);
    expect(turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["cassette"]);
    // The replayed tool never ran, so neither did its HTTP request.
    expect(turn.httpCalls).toEqual([]);
    expect(tracker.hits()).toBe(1);
    // Only the exchange after the prefix went out, carrying the replayed tool result.
    expect(today.seen).toHaveLength(1);
    expect(today.seen[0]?.body).toContain("Issue 7");
    expect(turn.text).toBe('Today\'s answer: {"id":"7","title":"Issue 7","state":"open"}');
    await today.close();
    await tracker.close();
  });

  test("going live after the prefix, a Responses request that points at a replayed response is refused naming why", async () => {
    const provider = await fakeProvider("noted");
    const path = cassettePath();
    const agent = async () => {
      const client = openaiClient();
      const first = await client.responses.create({ model: "gpt-4.1", input: "Triage issue 7" });
      const second = await client.responses.create({ model: "gpt-4.1", previous_response_id: first.id, input: "And then?" });
      return second.output_text;
    };
    const recorder = createSession({ agent, tools: {}, upstream: provider.url, cassette: { mode: "record", path } });
    expect((await recorder.send("go")).text).toBe("noted");
    recorder.close();

    const session = createSession({ agent, tools: {}, upstream: provider.url, cassette: { replay: { upTo: 1 }, path } });
    const turn = await session.send("go");
    session.close();
    await provider.close();
    expect(turn.error?.message).toMatch(/refers to a response or an item tooltrace issued while replaying/);
    expect(provider.seen).toHaveLength(2);
  });

  test("a prefix replay is refused without the real model, in a strict session, and with another mode", () => {
    const { agent, tools } = issueAgent({ url: "http://127.0.0.1:9" });
    const path = cassettePath();
    expect(() => createSession({ agent, tools, cassette: { replay: { upTo: 1 }, path } })).toThrow(/give the session `upstream`/);
    expect(() => createSession({ agent, tools, upstream: true, strict: true, cassette: { replay: { upTo: 1 }, path } })).toThrow(/strict/);
    expect(() => createSession({ agent, tools, upstream: true, cassette: { mode: "record", replay: { upTo: 1 }, path } })).toThrow(
      StubConfigError,
    );
    expect(() => createSession({ agent, tools, upstream: true, cassette: { replay: { upTo: -1 }, path } })).toThrow(
      /cassette\.replay\.upTo must be a whole number/,
    );
    expect(() => createSession({ agent, tools, upstream: true, llm: "hi" })).toThrow(/both `llm`/);
    expect(() => createSession({ agent, tools, upstream: "api.openai.com" as never })).toThrow(/createSession\(\{ upstream \}\)/);
  });
});

describe("the real model in strict mode, and the upstream's errors", () => {
  test("strict mode refuses a call to the real model: the provider receives nothing, and the test fails naming it", async () => {
    const provider = await fakeProvider();
    const { agent, tools } = issueAgent({ url: "http://127.0.0.1:9" });
    const session = createSession({ agent, tools, upstream: provider.url, strict: true });
    const turn = await session.send("Triage issue 7");
    expect(turn.status).toBe("failed");
    expect(provider.seen).toHaveLength(0);
    expect(session.takeViolations().join("\n")).toMatch(
      /strict mode: a call to the real model \(openai\.chat gpt-4o-mini\) would have gone out/,
    );
    await provider.close();
  });

  test("an upstream error reaches the client with its status, is recorded, and replays as the same error", async () => {
    const provider = await fakeProvider(taskResponder, ["some-other-model"]);
    const path = cassettePath();
    const { agent, tools } = issueAgent({ url: "http://127.0.0.1:9" });
    const recorder = createSession({ agent, tools, upstream: provider.url, cassette: { mode: "record", path } });
    const turn = await recorder.send("Triage issue 7");
    recorder.close();
    expect(turn.status).toBe("failed");
    expect(turn.error?.message).toMatch(/404.*does not exist/);
    const file = JSON.parse(readFileSync(path, "utf8")) as CassetteFile;
    expect(file.llm?.[0]?.error).toMatchObject({ name: "UpstreamError", status: 404 });
    await provider.close();

    const replayer = createSession({ agent, tools, upstream: provider.url, cassette: { mode: "replay", path } });
    const again = await replayer.send("Triage issue 7");
    replayer.close();
    expect(again.error?.message).toBe(turn.error?.message);
  });

  test("an upstream error's body is redacted in the cassette, its message included", async () => {
    const secret = "sk-live-upstream-echo-9f8e7d";
    const provider = await serveOnLoopback(async () =>
      Response.json({ error: { message: "Incorrect API key provided", api_key: secret } }, { status: 401 }),
    );
    const path = cassettePath();
    const { agent, tools } = issueAgent({ url: "http://127.0.0.1:9" });
    const recorder = createSession({ agent, tools, upstream: provider.url, cassette: { mode: "record", path } });
    const turn = await recorder.send("Triage issue 7");
    recorder.close();
    await provider.close();
    expect(turn.error?.message).toMatch(/401/);
    const text = readFileSync(path, "utf8");
    expect(text).toContain("Incorrect API key provided");
    expect(text).not.toContain(secret);
  });

  test("a replay that runs past the recorded exchanges, or with another user message, is refused naming the exchange", async () => {
    const provider = await fakeProvider(triage("Recorded answer"));
    const tracker = await fakeTracker();
    const path = cassettePath();
    const recorder = createSession({ ...issueAgent(tracker), upstream: provider.url, cassette: { mode: "record", path } });
    await recorder.send("Triage issue 7");
    recorder.close();
    await provider.close();
    await tracker.close();

    const other = createSession({ ...issueAgent(tracker), upstream: provider.url, cassette: { mode: "replay", path } });
    const turn = await other.send("Close issue 7");
    expect(turn.status).toBe("failed");
    expect(other.takeViolations().join("\n")).toMatch(
      /model exchange 1 was recorded for the user message "Triage issue 7", and the agent now sends "Close issue 7"/,
    );

    const longer = createSession({ ...issueAgent(tracker), upstream: provider.url, cassette: { mode: "replay", path } });
    await longer.send("Triage issue 7");
    const more = await longer.send("Triage issue 7");
    expect(more.status).toBe("failed");
    expect(longer.takeViolations().join("\n")).toMatch(/holds 2 exchanges with the model, and the agent started exchange 3/);
  });
});
