import Anthropic from "@anthropic-ai/sdk";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, createResponder, type MockModelRequest } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";

const seen: MockModelRequest[] = [];
let script: ((request: MockModelRequest) => unknown) | undefined;
const responder = createResponder((request) => {
  seen.push(request);
  return (script?.(request) as string | undefined) ?? "ok";
});
let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer({ respond: responder, models: ["gpt-4o", "claude-opus-4-8"], onUnhandledRequest: "error" });
});
afterAll(() => llm.close());
const fresh = (next?: (request: MockModelRequest) => unknown) => {
  seen.length = 0;
  script = next;
};

describe("the Anthropic wire as Claude Code speaks it", () => {
  test("a system message inside messages (Claude Code's default model) is accepted and shown in the view", async () => {
    fresh();
    const client = new Anthropic({ apiKey: "k", maxRetries: 0 });
    const messages = [
      { role: "user", content: "Say hello" },
      { role: "system", content: "Available agent types for the Agent tool: ..." },
    ] as unknown as Anthropic.MessageParam[];
    const reply = await client.messages.create({
      model: "claude-opus-4-8",
      max_tokens: 10,
      system: [{ type: "text", text: "You are Claude Code." }],
      messages,
    });
    expect(reply.content).toEqual([{ type: "text", text: "ok" }]);
    expect(seen[0]?.messages.map((message) => [message.role, message.text.slice(0, 21)])).toEqual([
      ["system", "You are Claude Code."],
      ["user", "Say hello"],
      ["system", "Available agent types"],
    ]);
  });

  test("a system message in the wrong place is the API's 400", async () => {
    const client = new Anthropic({ apiKey: "k", maxRetries: 0 });
    const messages = [
      { role: "system", content: "first" },
      { role: "user", content: "hi" },
    ] as unknown as Anthropic.MessageParam[];
    const error = await client.messages.create({ model: "claude-opus-4-8", max_tokens: 10, messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String(error)).toContain("messages.0: a system message inside messages must come right after a user message");
  });

  test("streams carry ping after the first content block and the full usage in message_delta", async () => {
    fresh(() => ({ text: "Hello", usage: { inputTokens: 12, outputTokens: 3 } }));
    const response = await fetch("https://api.anthropic.com/v1/messages", {
      method: "POST",
      headers: { "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "claude-opus-4-8", max_tokens: 5, stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const events = (await response.text())
      .split("\n\n")
      .filter(Boolean)
      .map((event) => /^event: (\S+)/.exec(event)?.[1]);
    expect(events).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const client = new Anthropic({ apiKey: "k", maxRetries: 0 });
    const final = await client.messages
      .stream({ model: "claude-opus-4-8", max_tokens: 5, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });
});

describe("OpenAI Responses: references to what the mock issued", () => {
  test("@ai-sdk/openai's item_reference resolves to the assistant message the mock sent (it was empty text before)", async () => {
    fresh((request) =>
      request.toolResults.length === 0 ? { text: "Let me look.", toolCalls: [{ name: "list_tasks" }] } : "You have milk.",
    );
    const openai = createOpenAI({ apiKey: "k" });
    const tools = { list_tasks: tool({ inputSchema: z.object({}), execute: async () => ["milk"] }) };
    const session = createSession({
      tools,
      agent: async (message) => (await generateText({ model: openai("gpt-4o"), tools, prompt: message, stopWhen: stepCountIs(3) })).text,
    });
    const turn = await session.send("tasks?");
    expect(turn.text).toBe("You have milk.");
    const second = seen[1];
    expect(second?.messages.find((message) => message.role === "assistant")).toMatchObject({
      text: "Let me look.",
      toolCalls: [{ name: "list_tasks" }],
    });
  });

  test("previous_response_id continues a stored response; unknown ids get the API's 404", async () => {
    fresh((request) => `turns: ${request.userMessageCount}`);
    const client = new OpenAI({ apiKey: "k", maxRetries: 0 });
    const first = await client.responses.create({ model: "gpt-4o", input: "one" });
    const second = await client.responses.create({ model: "gpt-4o", input: "two", previous_response_id: first.id });
    expect(second.output_text).toBe("turns: 2");
    expect(seen[1]?.messages.map((message) => [message.role, message.text])).toEqual([
      ["user", "one"],
      ["assistant", "turns: 1"],
      ["user", "two"],
    ]);
    const missing = await client.responses
      .create({ model: "gpt-4o", input: "x", previous_response_id: "resp_nope" })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).param).toBe("previous_response_id");
    const badItem = await client.responses
      .create({ model: "gpt-4o", input: [{ type: "item_reference", id: "msg_nope" }] })
      .catch((e: unknown) => e);
    expect(badItem).toBeInstanceOf(OpenAI.NotFoundError);
    expect(String(badItem)).toContain("Item with id 'msg_nope' not found.");
  });

  test("echoes tools, instructions and reasoning as the real API does", async () => {
    fresh();
    const client = new OpenAI({ apiKey: "k", maxRetries: 0 });
    const tools = [{ type: "function" as const, name: "list_tasks", parameters: { type: "object", properties: {} }, strict: false }];
    const response = await client.responses.create({
      model: "gpt-4o",
      input: "hi",
      instructions: "Be brief.",
      reasoning: { effort: "low" },
      tools,
      store: false,
    });
    expect(response).toMatchObject({ instructions: "Be brief.", reasoning: { effort: "low" }, tools, store: false });
  });
});

describe("every tool a client offers is in the view, and a reply can call a custom tool", () => {
  // The tools Codex 0.171 offers (captured from the real CLI), trimmed.
  const codexTools = [
    {
      type: "function",
      name: "exec_command",
      description: "Runs a command.",
      strict: false,
      parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] },
    },
    {
      type: "namespace",
      name: "multi_agent_v1",
      description: "Sub-agents.",
      tools: [{ type: "function", name: "spawn_agent", strict: false, parameters: { type: "object", properties: {} } }],
    },
    {
      type: "custom",
      name: "apply_patch",
      description: "FREEFORM patch.",
      format: { type: "grammar", syntax: "lark", definition: "start: begin_patch" },
    },
    {
      type: "tool_search",
      execution: "client",
      description: "Searches deferred tools.",
      parameters: { type: "object", properties: { query: { type: "string" } } },
    },
    { type: "web_search", external_web_access: false },
  ];

  test("Codex's function, namespace, custom, tool_search and web_search tools, with their types", async () => {
    fresh();
    const client = new OpenAI({ apiKey: "k", maxRetries: 0 });
    await client.responses.create({ model: "gpt-4o", input: "hi", tools: codexTools as never });
    expect(seen[0]?.tools.map((offered) => [offered.name, offered.type])).toEqual([
      ["exec_command", "function"],
      ["multi_agent_v1.spawn_agent", "function"],
      ["apply_patch", "custom"],
      ["tool_search", "tool_search"],
      ["web_search", "web_search"],
    ]);
  });

  test("a reply calls the custom apply_patch tool with raw text; its output comes back in the next request", async () => {
    const patch = "*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n";
    fresh((request) =>
      request.toolResults.length === 0
        ? { toolCalls: [{ name: "apply_patch", input: patch }] }
        : `patched: ${String(request.toolResults[0]?.output)}`,
    );
    const client = new OpenAI({ apiKey: "k", maxRetries: 0 });
    const first = await client.responses.stream({ model: "gpt-4o", input: "add hello.txt", tools: codexTools as never }).finalResponse();
    const call = first.output[0] as { type: string; name: string; input: string; call_id: string };
    expect(call).toMatchObject({ type: "custom_tool_call", name: "apply_patch", input: patch });
    const second = await client.responses.create({
      model: "gpt-4o",
      tools: codexTools as never,
      input: [
        { role: "user", content: "add hello.txt" },
        call as never,
        { type: "custom_tool_call_output", call_id: call.call_id, output: "Success. A hello.txt" } as never,
      ],
    });
    expect(second.output_text).toBe("patched: Success. A hello.txt");
    expect(seen[1]?.messages.find((message) => message.role === "assistant")?.toolCalls).toEqual([
      { id: call.call_id, name: "apply_patch", input: patch },
    ]);
  });

  test("Anthropic server tools are shown with their type", async () => {
    fresh();
    const client = new Anthropic({ apiKey: "k", maxRetries: 0 });
    await client.messages.create({
      model: "claude-opus-4-8",
      max_tokens: 5,
      messages: [{ role: "user", content: "hi" }],
      tools: [
        { name: "Bash", input_schema: { type: "object", properties: {} } },
        { type: "web_search_20250305", name: "web_search", max_uses: 2 },
      ],
    });
    expect(seen[0]?.tools.map((offered) => [offered.name, offered.type])).toEqual([
      ["Bash", "function"],
      ["web_search", "web_search_20250305"],
    ]);
  });
});

describe("every path on the providers' hosts is answered, in the provider's shape", () => {
  test.each([
    ["GET", "https://api.openai.com/v1/models", 200, { object: "list", data: [{ id: "gpt-4o" }, { id: "claude-opus-4-8" }] }],
    ["GET", "https://api.openai.com/v1/models/gpt-4o", 200, { id: "gpt-4o", object: "model" }],
    ["GET", "https://api.openai.com/v1/models/gpt-9", 404, { error: { type: "invalid_request_error" } }],
    [
      "POST",
      "https://api.openai.com/v1/embeddings",
      404,
      { error: { type: "invalid_request_error", message: expect.stringContaining("Invalid URL (POST /v1/embeddings)") } },
    ],
    ["POST", "https://api.openai.com/v1/completions", 404, { error: { type: "invalid_request_error" } }],
    [
      "GET",
      "https://api.openai.com/v1/chat/completions",
      404,
      { error: { message: expect.stringContaining("Invalid URL (GET /v1/chat/completions)") } },
    ],
    ["POST", "https://api.anthropic.com/v1/messages/batches", 404, { type: "error", error: { type: "not_found_error" } }],
    ["POST", "https://api.anthropic.com/v1/messages/", 404, { type: "error", error: { type: "not_found_error" } }],
    [
      "GET",
      "https://api.anthropic.com/v1/models",
      200,
      {
        data: [
          { type: "model", id: "gpt-4o" },
          { type: "model", id: "claude-opus-4-8" },
        ],
        has_more: false,
      },
    ],
  ] as const)("%s %s → %i", async (method, url, status, body) => {
    const headers: Record<string, string> = url.includes("anthropic")
      ? { "anthropic-version": "2023-06-01", "x-api-key": "k" }
      : { authorization: "Bearer k" };
    const response = await fetch(url, {
      method,
      headers,
      ...(method === "POST" ? { body: JSON.stringify({ model: "gpt-4o", input: "x" }) } : {}),
    });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject(body);
  });

  test("HEAD / (Claude Code's connectivity check) and count_tokens", async () => {
    expect((await fetch("https://api.anthropic.com/", { method: "HEAD" })).status).toBe(200);
    const client = new Anthropic({ apiKey: "k", maxRetries: 0 });
    const count = await client.messages.countTokens({ model: "claude-opus-4-8", messages: [{ role: "user", content: "12345678" }] });
    expect(count.input_tokens).toBe(2);
  });
});

describe("a deliberate failure costs one call with every client", () => {
  test.each([
    ["@ai-sdk/openai", () => createOpenAI({ apiKey: "k" })("gpt-4o")],
    ["@ai-sdk/openai (chat)", () => createOpenAI({ apiKey: "k" }).chat("gpt-4o")],
    ["@ai-sdk/anthropic", () => createAnthropic({ apiKey: "k" })("claude-opus-4-8")],
  ])("%s does not retry a failing responder (it made three calls and waited ~6 s)", async (_name, model) => {
    fresh(() => {
      throw new Error("scripted failure");
    });
    const before = responder.calls;
    const session = createSession({
      agent: async () =>
        (await generateText({ model: model(), prompt: "x" }).catch((error: Error) => ({ text: `failed: ${error.message}` }))).text,
    });
    const turn = await session.send("go");
    expect(turn.text).toContain("scripted failure");
    expect(responder.calls - before).toBe(1);
    expect(session.takeViolations()).toHaveLength(1);
  });
});
