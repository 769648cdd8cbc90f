import Anthropic from "@anthropic-ai/sdk";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { anthropicAgent, openaiChatAgent, openaiResponsesAgent } from "../fixtures/sdk-agents.js";
import { opaque, raw, viaAiSdk, type Setup } from "../fixtures/sdk-cases.js";
import { taskResponder } from "../fixtures/task-responder.js";
import { taskStubs } from "../fixtures/tasks.js";
import { runTasksExample } from "../fixtures/tasks-example.js";

let server: LlmServer;
beforeAll(() => {
  server = startLlmServer({ respond: taskResponder });
});
afterAll(() => server.close());

// The official SDKs keep the `fetch` they found when constructed, so they are built after MSW starts.
const openaiClient = () => new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
const anthropicClient = () => new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
const aiOpenai = createOpenAI({ apiKey: "sk-test" });
const aiAnthropic = createAnthropic({ apiKey: "sk-ant-test" });

const cases: [string, Setup][] = [
  ["openai SDK, chat completions", raw((t) => opaque(openaiChatAgent(openaiClient(), t, false)), "openai.chat")],
  ["openai SDK, chat completions, streaming", raw((t) => opaque(openaiChatAgent(openaiClient(), t, true)), "openai.chat")],
  ["openai SDK, responses", raw((t) => opaque(openaiResponsesAgent(openaiClient(), t, false)), "openai.responses")],
  ["openai SDK, responses, streaming", raw((t) => opaque(openaiResponsesAgent(openaiClient(), t, true)), "openai.responses")],
  ["anthropic SDK, messages", raw((t) => opaque(anthropicAgent(anthropicClient(), t, false)), "anthropic.messages")],
  ["anthropic SDK, messages, streaming", raw((t) => opaque(anthropicAgent(anthropicClient(), t, true)), "anthropic.messages")],
  ["AI SDK + @ai-sdk/openai (responses), generateText", viaAiSdk(aiOpenai("gpt-4.1"), "generate", "openai.responses")],
  ["AI SDK + @ai-sdk/openai (responses), streamText", viaAiSdk(aiOpenai("gpt-4.1"), "stream", "openai.responses")],
  ["AI SDK + @ai-sdk/openai (chat), generateText", viaAiSdk(aiOpenai.chat("gpt-4o-mini"), "generate", "openai.chat")],
  ["AI SDK + @ai-sdk/openai (chat), streamText", viaAiSdk(aiOpenai.chat("gpt-4o-mini"), "stream", "openai.chat")],
  ["AI SDK + @ai-sdk/anthropic, generateText", viaAiSdk(aiAnthropic("claude-sonnet-4-5"), "generate", "anthropic.messages")],
  ["AI SDK + @ai-sdk/anthropic, streamText", viaAiSdk(aiAnthropic("claude-sonnet-4-5"), "stream", "anthropic.messages")],
];

describe.each(cases)("the tasks example over the wire: %s", (_name, setup) => {
  test("stubbed tools, the mock model on the wire, the whole conversation", async () => {
    const { agent, tools, provider } = setup();
    const session = createSession({ agent, tools, stubs: taskStubs });

    const [first, second] = await runTasksExample(session);
    expect(first.modelCalls.map((call) => call.provider)).toEqual([provider, provider]);
    expect(first.modelCalls[0]?.request).toMatchObject({ lastUserMessage: "What tasks do I have?", userMessageCount: 1 });
    expect(first.usage.totalTokens).toBe(first.modelCalls.reduce((sum, call) => sum + call.usage.totalTokens, 0));
    expect(second.modelCalls).toHaveLength(3);
    expect(second.modelCalls[0]?.request).toMatchObject({
      userMessageCount: 2,
      lastUserMessage: "Complete Buy milk, then list my remaining tasks.",
    });
  });
});
