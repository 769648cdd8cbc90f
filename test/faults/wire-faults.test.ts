import Anthropic from "@anthropic-ai/sdk";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, streamText, tool } from "ai";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, StubConfigError, type Fault } from "tooltrace";

const question = [{ role: "user" as const, content: "hi" }];

describe("faults on the LLM wire, met by the SDKs' own retries", () => {
  test("a 429 with Retry-After on the first call: the OpenAI SDK retries, the script's first reply answers the retry", async () => {
    const session = createSession({
      agent: async (message: string) => {
        const client = new OpenAI({ apiKey: "sk-test" });
        const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: message }] });
        return completion.choices[0]?.message.content ?? "";
      },
      llm: ["first reply", "second reply"],
      faults: [{ fault: "rate_limit", calls: [1], retryAfter: 0 }],
    });
    const turn = await session.send("hi");
    expect(turn.text).toBe("first reply");
    expect(turn.modelCalls.map((call) => [call.status, call.http?.statusCode, call.answeredBy?.kind])).toEqual([
      ["failed", 429, "fault"],
      ["completed", 200, "mock-model"],
    ]);
    expect(turn.modelCalls[0]?.error?.message).toContain("rate_limit (429, Retry-After 0 s) injected by faults[0] on model call 1");
    expect(turn).toHaveRecovered();
    expect(() => expect(turn).toHaveGivenUpCleanly()).toThrow(/it did not give up: #2 got through after the last fault/);
  });

  test("Anthropic's 529 overloaded_error on every call: the SDK retries twice, then the agent reports it and gives up cleanly", async () => {
    let caught: unknown;
    const session = createSession({
      agent: async (message: string) => {
        const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 2 });
        try {
          await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: message }] });
          return "answered";
        } catch (error) {
          caught = error;
          return "The model is busy, try again later.";
        }
      },
      llm: ["never reached"],
      // The SDK reads a Retry-After of 0 as none (its own backoff): 10 ms keeps the test quick.
      faults: [{ fault: "overloaded", retryAfter: 0.01 }],
    });
    const turn = await session.send("hi");
    expect(caught).toBeInstanceOf(Anthropic.APIError);
    expect((caught as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((caught as { error?: { error?: { type?: string } } }).error?.error?.type).toBe("overloaded_error");
    expect(turn.modelCalls.map((call) => call.http?.statusCode)).toEqual([529, 529, 529]);
    expect(turn).toHaveGivenUpCleanly();
    expect(() => expect(turn).toHaveRecovered()).toThrow(/nothing got through after #1/);
    expect(session.unusedRuleIds()).toEqual([]);
  });

  test("a 503 from the OpenAI API through the AI SDK's provider: retried after its Retry-After, then the tool loop goes on", async () => {
    const openai = createOpenAI({ apiKey: "sk-test" });
    const tools = {
      get_weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, tempC: 21 }) }),
    };
    const session = createSession({
      agent: async (message: string) => {
        const result = await generateText({ model: openai.chat("gpt-4o"), tools, prompt: message, stopWhen: stepCountIs(3) });
        return result.text;
      },
      tools,
      llm: [{ toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] }, "21 °C in Paris."],
      faults: [{ fault: "server_error", status: 503, calls: [2], retryAfter: 0.01 }],
    });
    const turn = await session.send("Weather in Paris?");
    expect(turn.text).toBe("21 °C in Paris.");
    expect(turn.modelCalls.map((call) => call.http?.statusCode)).toEqual([200, 503, 200]);
    expect(turn).toHaveCalledTool("get_weather", { input: { city: "Paris" } });
    expect(turn).toHaveRecovered();
  });

  test("a stream cut after two events: the OpenAI SDK's stream throws mid-way, with the first delta read; the agent's own retry gets the whole reply", async () => {
    const errors: string[] = [];
    const session = createSession({
      agent: async (message: string) => {
        const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
        for (let attempt = 0; attempt < 3; attempt += 1) {
          let text = "";
          try {
            const stream = await client.chat.completions.create({
              model: "gpt-4o",
              stream: true,
              messages: [{ role: "user", content: message }],
            });
            for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
            return text;
          } catch (error) {
            errors.push(`${(error as Error).name}: got "${text}"`);
          }
        }
        return "gave up";
      },
      llm: ["The whole reply, streamed in more than one delta."],
      faults: [{ fault: "stream_cut", calls: [1], afterEvents: 2 }],
    });
    const turn = await session.send("hi");
    expect(turn.text).toBe("The whole reply, streamed in more than one delta.");
    // The role's event, then the first delta of the scripted reply: then the connection drops.
    expect(errors).toEqual(['TypeError: got "The whole reply, streamed in more "']);
    expect(turn.modelCalls.map((call) => [call.streamed, call.answeredBy?.kind])).toEqual([
      [true, "fault"],
      [true, "mock-model"],
    ]);
    expect(turn).toHaveRecovered();
  });

  test("a malformed body: the Anthropic SDK fails to parse it and does not retry", async () => {
    let caught: unknown;
    const session = createSession({
      agent: async (message: string) => {
        const client = new Anthropic({ apiKey: "sk-ant-test" });
        try {
          await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: message }] });
        } catch (error) {
          caught = error;
        }
        return "done";
      },
      llm: ["never seen"],
      faults: [{ fault: "malformed" }],
    });
    const turn = await session.send("hi");
    expect(caught).toBeInstanceOf(Error);
    expect(turn.modelCalls).toHaveLength(1);
    expect(turn).toHaveGivenUpCleanly();
  });

  test("the AI SDK's in-process mock model meets the same faults as a provider's APICallError, retried by generateText", async () => {
    const { mockModel } = await import("tooltrace");
    const session = createSession({
      agent: async (message: string) =>
        (await generateText({ model: mockModel(["ok after a retry"]), prompt: message, maxRetries: 2 })).text,
      faults: [{ fault: "rate_limit", calls: [1, 2] }],
    });
    const turn = await session.send("hi");
    expect(turn.text).toBe("ok after a retry");
    expect(turn.modelCalls.map((call) => call.answeredBy?.kind)).toEqual(["fault", "fault", "mock-model"]);
    expect(turn).toHaveRecovered();
    const streamed = createSession({
      agent: async (message: string) => {
        const result = streamText({ model: mockModel(["streamed after a retry"]), prompt: message, maxRetries: 1 });
        return await result.text;
      },
      faults: [{ fault: "server_error", calls: [1], retryAfter: 0 }],
    });
    expect((await streamed.send("hi")).text).toBe("streamed after a retry");
  });

  test("a slow answer: the first token waits, the trace shows who changed it", async () => {
    const session = createSession({
      agent: async () =>
        (await new OpenAI({ apiKey: "sk-test" }).chat.completions.create({ model: "gpt-4o", messages: question })).choices[0]?.message
          .content ?? "",
      llm: ["slowly"],
      faults: [{ fault: "slow", firstTokenMs: 120 }],
    });
    const started = performance.now();
    const turn = await session.send("hi");
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(turn.text).toBe("slowly");
    expect(turn.modelCalls[0]?.changes).toEqual([{ by: "faults", what: "output" }]);
  });
});

describe("faults drawn from the seed", () => {
  const pattern = async (seed: number) => {
    const session = createSession({
      agent: async () => {
        const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
        const seen: string[] = [];
        for (let i = 0; i < 12; i += 1)
          seen.push(
            await client.chat.completions.create({ model: "gpt-4o", messages: question }).then(
              () => "ok",
              (error: { status?: number }) => String(error.status),
            ),
          );
        return seen.join(" ");
      },
      llm: "fine",
      seed,
      faults: [
        { fault: "rate_limit", probability: 0.3 },
        { fault: "server_error", probability: 0.3 },
      ],
    });
    return (await session.send("go")).text;
  };

  test("the same seed gives the same faults on the same calls; another seed, others", async () => {
    const first = await pattern(7);
    expect(await pattern(7)).toBe(first);
    expect(first).toMatch(/429/);
    expect(first).toMatch(/ok/);
    const others = await Promise.all([1, 2, 3].map(pattern));
    expect(others.some((other) => other !== first)).toBe(true);
  });
});

describe("faults checked when the session is created", () => {
  test.each<[unknown, RegExp]>([
    [[{ fault: "rate-limit" }], /faults\/0\/fault: unknown fault "rate-limit"[\s\S]*Fix: use one of rate_limit, server_error/],
    [[{ fault: "rate_limit", calls: [0] }], /faults\/0\/calls: must be a non-empty array of call numbers from 1/],
    [
      [{ fault: "rate_limit", calls: [1], probability: 0.5 }],
      /faults\/0\/probability: a fault fires on `calls` or by `probability`, not both/,
    ],
    [[{ fault: "server_error", status: 429 }], /faults\/0\/status: must be 500, 502, 503 or 504[\s\S]*rate_limit"` for a 429/],
    [[{ fault: "slow" }, { fault: "slow", probability: 2 }], /faults\/1\/probability: must be a number between 0 and 1/],
    [[{ fault: "slow", delay: 5 }], /faults\/0\/delay: unknown field "delay"/],
  ])("%j is refused", (faults, expected) => {
    const create = () => createSession({ agent: () => "", llm: "x", faults: faults as Fault[] });
    expect(create).toThrow(StubConfigError);
    expect(create).toThrow(expected);
  });
});
