import Anthropic from "@anthropic-ai/sdk";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";
import { http, HttpResponse, passthrough } from "msw";
import { setupServer } from "msw/node";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createSession, takeRefusals } from "tooltrace";
import { llmWire, startLlmServer } from "tooltrace/msw";
import { serveOnLoopback } from "tooltrace/wire";
import { unhandled as unhandledPolicy } from "../fixtures/versions.js";

// The user's own MSW server, strict about unhandled requests, with its own API mock.
const userServer = setupServer(http.get("https://api.example.com/weather", () => HttpResponse.json({ temp: 21 })));
const unhandled: string[] = [];
// msw 2 passes the request, msw 3 a frame holding it.
beforeAll(() =>
  userServer.listen(
    unhandledPolicy(
      (arg: Request | { frame: { data: { request: Request } } }) =>
        void unhandled.push(arg instanceof Request ? arg.url : arg.frame.data.request.url),
    ) as never,
  ),
);
afterEach(() => {
  userServer.resetHandlers();
  unhandled.length = 0;
});
afterAll(() => userServer.close());

describe("beside the user's own MSW server", () => {
  test("the wire handlers join the user's server with server.use", async () => {
    const wire = llmWire({ respond: "from the wire" });
    userServer.use(...wire.handlers);
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]?.message.content).toBe("from the wire");
    expect(await (await fetch("https://api.example.com/weather")).json()).toEqual({ temp: 21 });
    expect(wire.calls.map((call) => [call.status, call.http?.statusCode])).toEqual([["completed", 200]]);
    expect(unhandled).toEqual([]);
  });

  test("startLlmServer({ server }) joins the user's server; each request is answered once; close() lets requests fall through", async () => {
    const llm = startLlmServer({ respond: "from the llm server", server: userServer });
    const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
    const message = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message.content).toEqual([{ type: "text", text: "from the llm server" }]);
    expect(llm.calls).toHaveLength(1);
    expect(llm.responder.calls).toBe(1);
    expect(await (await fetch("https://api.example.com/weather")).json()).toEqual({ temp: 21 });
    await fetch("https://api.example.com/unmocked").catch(() => undefined);
    expect(unhandled).toEqual(["https://api.example.com/unmocked"]);
    llm.close();
    await fetch("https://api.anthropic.com/v1/messages", { method: "POST", body: "{}" }).catch(() => undefined);
    expect(unhandled).toEqual(["https://api.example.com/unmocked", "https://api.anthropic.com/v1/messages"]);
    // What the user's server let through met the hermetic guard below it: refused, never sent.
    expect(takeRefusals()).toEqual([
      expect.stringContaining("GET https://api.example.com/unmocked was sent, and tooltrace refused it"),
      expect.stringContaining("POST https://api.anthropic.com/v1/messages was sent, and tooltrace refused it"),
    ]);
  });

  test("joined, tooltrace traces the user's handlers during a turn: session mocks win over them, strict refuses what none answers", async () => {
    let weatherServed = 0;
    userServer.use(http.get("https://api.example.com/weather", () => ((weatherServed += 1), HttpResponse.json({ temp: 21 }))));
    const llm = startLlmServer({ server: userServer });
    const get = (url: string) =>
      fetch(url).then(
        async (response) => `${response.status} ${await response.text()}`,
        (error: Error) => `refused ${error.name}`,
      );
    const session = createSession({
      tools: {},
      http: [{ id: "forecast", url: "https://api.example.com/forecast", outcome: { json: { rain: false } } }],
      agent: async () => [await get("https://api.example.com/weather"), await get("https://api.example.com/forecast")].join(" | "),
    });
    const turn = await session.send("weather?");
    expect(turn.text).toBe('200 {"temp":21} | 200 {"rain":false}');
    expect(turn.httpCalls.map((call) => [call.url.replace("https://api.example.com", ""), call.answeredBy?.kind])).toEqual([
      ["/weather", "msw-handler"],
      ["/forecast", "stub"],
    ]);
    expect(weatherServed).toBe(1);
    // Outside a turn the user's server is as it was: their policy (error) sees what none of their handlers answers.
    await fetch("https://api.example.com/unmocked").catch(() => undefined);
    expect(unhandled).toEqual(["https://api.example.com/unmocked"]);
    expect(takeRefusals()).toEqual([expect.stringContaining("GET https://api.example.com/unmocked was sent, and tooltrace refused it")]);

    const strict = createSession({
      tools: {},
      strict: true,
      agent: async () => [await get("https://api.example.com/weather"), await get("https://api.example.com/elsewhere")].join(" | "),
    });
    const strictTurn = await strict.send("weather?");
    expect(strictTurn.text).toBe('200 {"temp":21} | refused TypeError');
    expect(strict.takeViolations()).toEqual([
      expect.stringContaining("strict mode: GET https://api.example.com/elsewhere would have gone out to the network"),
    ]);
    expect(unhandled).toEqual(["https://api.example.com/unmocked"]);
    llm.close();
  });

  test("joined, a handler of the user's that passes a strict session's request through (passthrough(), or nothing) does not let it out", async () => {
    let reached = 0;
    const upstream = await serveOnLoopback(async () => ((reached += 1), new Response("live")));
    userServer.use(
      http.get(`${upstream.url}/pass`, () => passthrough()),
      http.get(`${upstream.url}/maybe`, () => undefined),
    );
    const llm = startLlmServer({ server: userServer });
    const get = (url: string) =>
      fetch(url).then(
        (response) => response.text(),
        (error: Error) => `refused ${error.name}`,
      );
    const session = createSession({
      tools: {},
      strict: true,
      agent: async () => [await get(`${upstream.url}/pass`), await get(`${upstream.url}/maybe`)].join(" | "),
    });
    const turn = await session.send("go");
    expect(turn.text).toBe("refused TypeError | refused TypeError");
    expect(reached).toBe(0);
    expect(session.takeViolations()).toHaveLength(2);
    llm.close();
    await upstream.close();
  });

  test("joined once, tooltrace survives the user's resetHandlers() after each test", async () => {
    const llm = startLlmServer({ server: userServer, respond: "still here" });
    userServer.resetHandlers();
    const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]?.message.content).toBe("still here");
    const session = createSession({ tools: {}, agent: async () => String((await fetch("https://api.example.com/weather")).status) });
    expect((await session.send("go")).httpCalls.map((call) => call.answeredBy?.kind)).toEqual(["msw-handler"]);
    llm.close();
  });

  test("a second MSW server would fight the user's: startLlmServer() refuses and says what to do", () => {
    expect(() => startLlmServer()).toThrow(/another MSW server is already listening.*startLlmServer\(\{ server \}\)/s);
  });
});

describe("base URLs", () => {
  test("a gateway base URL and an Azure-style deployment path", async () => {
    const wire = llmWire({
      respond: ({ lastUserMessage }) => `echo ${lastUserMessage}`,
      baseUrls: ["http://127.0.0.1:4010/llm-gateway", "https://acme.openai.azure.com/openai/deployments/*"],
    });
    userServer.use(...wire.handlers);
    const gatewayOpenai = new OpenAI({ apiKey: "k", baseURL: "http://127.0.0.1:4010/llm-gateway", maxRetries: 0 });
    expect(
      (await gatewayOpenai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "one" }] })).choices[0]?.message
        .content,
    ).toBe("echo one");
    const gatewayAnthropic = new Anthropic({ apiKey: "k", baseURL: "http://127.0.0.1:4010/llm-gateway", maxRetries: 0 });
    expect(
      (await gatewayAnthropic.messages.create({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "two" }] })).content,
    ).toEqual([{ type: "text", text: "echo two" }]);
    const azure = createOpenAI({ apiKey: "k", baseURL: "https://acme.openai.azure.com/openai/deployments/my-gpt" });
    const result = await generateText({ model: azure.chat("my-gpt"), prompt: "three" });
    expect(result.text).toBe("echo three");
    expect(wire.calls.map((call) => call.model)).toEqual(["m", "m", "my-gpt"]);
  });
});

describe("derived tool-call ids", () => {
  test("never repeat an id already in the conversation, even one without a result", async () => {
    userServer.use(...llmWire({ respond: () => ({ toolCalls: [{ name: "list_tasks" }] }) }).handlers);
    const client = new OpenAI({ apiKey: "k", maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "gpt-4o",
      tools: [{ type: "function", function: { name: "list_tasks", parameters: { type: "object" } } }],
      messages: [
        { role: "user", content: "list" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "list_tasks", arguments: "{}" } }],
        },
        { role: "user", content: "never mind, list again" },
      ],
    });
    expect(completion.choices[0]?.message.tool_calls?.map((call) => call.id)).toEqual(["call_2"]);
  });

  test("never repeat an id the script gave explicitly earlier (call_2 twice before)", async () => {
    userServer.use(
      ...llmWire({ respond: [{ toolCalls: [{ name: "list_tasks", id: "call_2" }] }, { toolCalls: [{ name: "list_tasks" }] }, "done"] })
        .handlers,
    );
    const client = new OpenAI({ apiKey: "k", maxRetries: 0 });
    const tools = [{ type: "function" as const, function: { name: "list_tasks", parameters: { type: "object" } } }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "list" }];
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const reply = (await client.chat.completions.create({ model: "gpt-4o", tools, messages })).choices[0]!.message;
      messages.push(reply);
      for (const call of reply.tool_calls ?? []) {
        ids.push(call.id);
        messages.push({ role: "tool", tool_call_id: call.id, content: "[]" });
      }
    }
    expect(ids).toEqual(["call_2", "call_3"]);
  });
});

describe("errors in the provider's own shape", () => {
  test("an unknown model is the provider's 404, which the SDKs raise as NotFoundError", async () => {
    userServer.use(...llmWire({ models: ["gpt-4o", "claude-sonnet-4-5"] }).handlers);
    const openai = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
    const openaiError = await openai.chat.completions
      .create({ model: "gpt-9", messages: [{ role: "user", content: "x" }] })
      .catch((error: unknown) => error);
    expect(openaiError).toBeInstanceOf(OpenAI.NotFoundError);
    expect((openaiError as InstanceType<typeof OpenAI.NotFoundError>).code).toBe("model_not_found");
    const anthropic = new Anthropic({ apiKey: "k", maxRetries: 0 });
    const anthropicError = await anthropic.messages
      .create({ model: "claude-9", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
      .catch((error: unknown) => error);
    expect(anthropicError).toBeInstanceOf(Anthropic.NotFoundError);
    expect((anthropicError as InstanceType<typeof Anthropic.NotFoundError>).error).toEqual({
      type: "error",
      error: { type: "not_found_error", message: "model: claude-9" },
    });
    expect(
      (await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] })).choices[0]?.message.content,
    ).toBe("Mock response");
  });

  test("malformed JSON is a 400 invalid_request_error", async () => {
    userServer.use(...llmWire().handlers);
    const openaiResponse = await fetch("https://api.openai.com/v1/responses", { method: "POST", body: "{not json" });
    expect(openaiResponse.status).toBe(400);
    expect(await openaiResponse.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    const anthropicResponse = await fetch("https://api.anthropic.com/v1/messages", {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: "nope" }),
    });
    expect(anthropicResponse.status).toBe(400);
    expect(await anthropicResponse.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "messages: Field required" },
    });
  });

  test("a responder that throws is a 400 in the provider's shape, not retried, and fails the test through the session", async () => {
    const wire = llmWire({
      respond: () => {
        throw new Error("responder exploded");
      },
    });
    userServer.use(...wire.handlers);
    // The SDK's default retries stay on: `x-should-retry: false` must stop them.
    const client = new OpenAI({ apiKey: "sk-test" });
    const session = createSession({
      agent: async () => {
        try {
          await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] });
          return "no error";
        } catch (error) {
          return `recovered from ${(error as InstanceType<typeof OpenAI.BadRequestError>).status}`;
        }
      },
    });
    const turn = await session.send("go");
    expect(turn.text).toBe("recovered from 400");
    expect(wire.responder.calls).toBe(1);
    expect(turn.modelCalls[0]?.error).toEqual({ name: "Error", message: "responder exploded" });
    // The trace keeps the status the client got.
    expect(turn.modelCalls[0]?.http?.statusCode).toBe(400);
    expect(turn).not.toSucceed();
    expect(session.takeViolations()).toEqual(["the mock model failed (openai.chat, model gpt-4o): responder exploded"]);
  });

  test("a tool the agent did not offer fails with a message naming both", async () => {
    const wire = llmWire({ respond: () => ({ toolCalls: [{ name: "delete_everything" }] }) });
    userServer.use(...wire.handlers);
    const client = new Anthropic({ apiKey: "k", maxRetries: 0 });
    const error = await client.messages
      .create({
        model: "m",
        max_tokens: 5,
        messages: [{ role: "user", content: "x" }],
        tools: [{ name: "list_tasks", input_schema: { type: "object" } }],
      })
      .then(
        () => undefined,
        (e: unknown) => e as InstanceType<typeof Anthropic.BadRequestError>,
      );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    if (!error) return;
    expect(error.status).toBe(400);
    expect(wire.calls.map((call) => [call.status, call.http?.statusCode])).toEqual([["failed", 400]]);
    expect((error.error as { error: { type: string; message: string } }).error).toMatchObject({
      type: "api_error",
      message: expect.stringContaining('the responder called tool "delete_everything", but the agent offered list_tasks'),
    });
  });
});
