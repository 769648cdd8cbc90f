import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type MockModelRequest, type MockModelResponse, type ReasoningPart } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";

const THINKING: ReasoningPart = {
  type: "thinking",
  thinking: "The user wants the weather; I should look it up.",
  signature: "sig-EqQBCkgIARABGAIiQ",
};
const REDACTED: ReasoningPart = { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" };
const REASONING_ITEM: ReasoningPart = {
  type: "reasoning",
  id: "rs_0a1b2c",
  summary: [],
  encrypted_content: "gAAAAABo-encrypted-reasoning",
};

/** A model that thinks, then asks for the weather; given the tool's result, answers with it. */
const thinkingModel =
  (parts: ReasoningPart[], answer: string) =>
  (request: MockModelRequest): MockModelResponse | string =>
    request.toolResults.length === 0
      ? { reasoning: parts, toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] }
      : `${answer}: ${JSON.stringify(request.toolResults[0]?.output)}`;

let wire: LlmServer;
beforeAll(() => {
  wire = startLlmServer();
});
afterAll(() => wire.close());

/** A fake provider on 127.0.0.1, keeping every body it receives. */
async function fakeProvider(respond: (request: MockModelRequest) => MockModelResponse | string) {
  const answer = createLlmAnswer({ respond });
  const bodies: string[] = [];
  const server = await serveOnLoopback(async (request) => {
    bodies.push(await request.clone().text());
    return answer.answer(request);
  });
  return { url: server.url, bodies, close: () => server.close() };
}

const weatherTool = {
  name: "get_weather",
  description: "The weather.",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } } },
};

/** An Anthropic agent with thinking on, that sends the assistant's whole content back, as the SDK's users do. */
async function anthropicAgent(stream: boolean, received: unknown[] = []): Promise<string> {
  const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
  const ask = async () =>
    stream
      ? client.messages
          .stream({
            model: "claude-sonnet-4-5",
            max_tokens: 1024,
            thinking: { type: "enabled", budget_tokens: 1024 },
            tools: [weatherTool],
            messages,
          })
          .finalMessage()
      : client.messages.create({
          model: "claude-sonnet-4-5",
          max_tokens: 1024,
          thinking: { type: "enabled", budget_tokens: 1024 },
          tools: [weatherTool],
          messages,
        });
  const first = await ask();
  received.push(...first.content);
  const call = first.content.find((block) => block.type === "tool_use");
  messages.push({ role: "assistant", content: first.content });
  messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: call?.id ?? "", content: '{"tempC":21}' }] });
  const second = await ask();
  return second.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("reasoning parts: sent by the mock model, kept by cassettes, so a replayed prefix can go live", () => {
  test.each([false, true])("Anthropic thinking blocks (stream: %s) reach the client whole, signature included", async (stream) => {
    const received: unknown[] = [];
    const session = createSession({ agent: () => anthropicAgent(stream, received), llm: thinkingModel([THINKING, REDACTED], "Sunny") });
    const turn = await session.send("go");
    expect(turn.text).toBe('Sunny: {"tempC":21}');
    // The SDK's own parser (JSON, or the stream's thinking and signature deltas) gives the client the blocks whole.
    expect(received.slice(0, 2)).toEqual([THINKING, REDACTED]);
  });

  test("Anthropic: recorded against a provider that thinks, replayed for one exchange, then live: the live request carries the thinking blocks", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-reasoning-")), "thinking.json");
    const recordedProvider = await fakeProvider(thinkingModel([THINKING, REDACTED], "Recorded"));
    const recorder = createSession({
      agent: () => anthropicAgent(true),
      upstream: recordedProvider.url,
      cassette: { mode: "record", path },
    });
    expect((await recorder.send("go")).text).toBe('Recorded: {"tempC":21}');
    recorder.close();
    await recordedProvider.close();
    const file = JSON.parse(readFileSync(path, "utf8")) as { llm: { reply?: { reasoning?: unknown } }[] };
    expect(file.llm[0]?.reply?.reasoning).toEqual([THINKING, REDACTED]);

    const today = await fakeProvider(thinkingModel([], "Today"));
    const session = createSession({ agent: () => anthropicAgent(false), upstream: today.url, cassette: { replay: { upTo: 1 }, path } });
    const turn = await session.send("go");
    expect(session.close().violations).toEqual([]);
    expect(turn.modelCalls.map((call) => call.answeredBy?.kind)).toEqual(["cassette", "real"]);
    expect(today.bodies).toHaveLength(1);
    const live = JSON.parse(today.bodies[0] ?? "{}") as { messages: { role: string; content: unknown }[] };
    expect(live.messages[1]?.content).toEqual([THINKING, REDACTED, expect.objectContaining({ type: "tool_use", name: "get_weather" })]);
    expect(turn.text).toBe('Today: {"tempC":21}');
    await today.close();
  });

  test("OpenAI Responses: a reasoning item with encrypted content is replayed whole and sent on live", async () => {
    const agent = async () => {
      const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
      const tools = [
        {
          type: "function" as const,
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
          strict: false,
        },
      ];
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Weather in Paris?" }];
      const first = await client.responses.create({ model: "gpt-5", store: false, include: ["reasoning.encrypted_content"], tools, input });
      const call = first.output.find((item) => item.type === "function_call");
      input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]));
      input.push({ type: "function_call_output", call_id: call?.type === "function_call" ? call.call_id : "", output: '{"tempC":21}' });
      const second = await client.responses.create({ model: "gpt-5", store: false, tools, input });
      return second.output_text;
    };
    const path = join(mkdtempSync(join(tmpdir(), "tooltrace-reasoning-")), "responses.json");
    const recordedProvider = await fakeProvider(thinkingModel([REASONING_ITEM], "Recorded"));
    const recorder = createSession({ agent, upstream: recordedProvider.url, cassette: { mode: "record", path } });
    expect((await recorder.send("go")).text).toBe('Recorded: {"tempC":21}');
    recorder.close();
    await recordedProvider.close();
    const today = await fakeProvider(thinkingModel([], "Today"));
    const session = createSession({ agent, upstream: today.url, cassette: { replay: { upTo: 1 }, path } });
    const turn = await session.send("go");
    expect(session.close().violations).toEqual([]);
    const live = JSON.parse(today.bodies[0] ?? "{}") as { input: unknown[] };
    expect(live.input).toContainEqual(REASONING_ITEM);
    expect(turn.text).toBe('Today: {"tempC":21}');
    await today.close();
  });
});
