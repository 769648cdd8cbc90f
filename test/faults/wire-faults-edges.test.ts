import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { createSession, grader } from "tooltrace";

const question = [{ role: "user" as const, content: "hi" }];

describe("faults as the red team met them", () => {
  test("a network_error fails the connection before any answer: the OpenAI SDK retries it as a connection error", async () => {
    const session = createSession({
      agent: async (message: string) => {
        const client = new OpenAI({ apiKey: "sk-test", maxRetries: 2 });
        const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: message }] });
        return completion.choices[0]?.message.content ?? "";
      },
      llm: ["after the reconnect"],
      faults: [{ fault: "network_error", calls: [1] }],
    });
    const turn = await session.send("hi");
    expect(turn.text).toBe("after the reconnect");
    expect(turn.modelCalls.map((call) => [call.answeredBy?.kind, call.http?.statusCode])).toEqual([
      ["fault", undefined],
      ["mock-model", 200],
    ]);
    expect(turn).toHaveRecovered();
  });

  test("a slow first token holds the headers (an SDK's timeout fires) and is in the call's duration", async () => {
    let timedOut: unknown;
    const session = createSession({
      agent: async () => {
        const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0, timeout: 60 });
        await client.chat.completions.create({ model: "gpt-4o", messages: question }).catch((error: unknown) => (timedOut = error));
        const patient = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
        return (await patient.chat.completions.create({ model: "gpt-4o", messages: question })).choices[0]?.message.content ?? "";
      },
      llm: ["late", "on time"],
      faults: [{ fault: "slow", calls: [1], firstTokenMs: 400 }],
    });
    const turn = await session.send("hi");
    expect((timedOut as Error).constructor.name).toBe("APIConnectionTimeoutError");
    expect(turn.text).toBe("on time");
    // The client gave up; the slow call itself ends when its first token would have come.
    await expect.poll(() => turn.modelCalls[0]?.durationMs, { timeout: 2000 }).toBeGreaterThanOrEqual(390);
  });

  test("tokensPerSecond paces a whole JSON answer by its tokens, not only its first byte", async () => {
    const session = createSession({
      agent: async () =>
        (await new OpenAI({ apiKey: "sk-test" }).chat.completions.create({ model: "gpt-4o", messages: question })).choices[0]?.message
          .content ?? "",
      llm: [{ text: "paced", usage: { inputTokens: 1, outputTokens: 30 } }],
      faults: [{ fault: "slow", tokensPerSecond: 100 }],
    });
    const turn = await session.send("hi");
    expect(turn.text).toBe("paced");
    expect(turn.modelCalls[0]?.durationMs).toBeGreaterThanOrEqual(290);
  });

  test("a malformed Anthropic stream breaks a content event, which the SDK reports", async () => {
    let caught: unknown;
    const session = createSession({
      agent: async (message: string) => {
        const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
        try {
          const stream = client.messages.stream({
            model: "claude-sonnet-4-5",
            max_tokens: 50,
            messages: [{ role: "user", content: message }],
          });
          return await stream.finalText();
        } catch (error) {
          caught = error;
          return "broken";
        }
      },
      llm: ["A reply long enough for a few deltas in its stream."],
      faults: [{ fault: "malformed" }],
    });
    expect((await session.send("hi")).text).toBe("broken");
    expect(caught).toBeInstanceOf(Error);
  });

  test("ctx.callLLM (a grader) is tooltrace's own call: the session's faults neither meet nor count it", async () => {
    const session = createSession({
      agent: async () => "Paris",
      llm: ["PASS it says Paris"],
      middleware: [grader({ expected: "Paris", by: "llm" })],
      faults: [{ fault: "rate_limit", calls: [1] }],
    });
    const turn = await session.send("Capital of France?");
    expect(turn.status).toBe("completed");
    expect(turn).toHaveResult("grader", { pass: true });
  });
});
