import Anthropic from "@anthropic-ai/sdk";
import { createOpenAI } from "@ai-sdk/openai";
import { GoogleGenAI } from "@google/genai";
import { streamText } from "ai";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { createSession, type Fault, mockModel } from "tooltrace";

// A cut stream used to carry nothing (0 events, then "terminated", whatever afterEvents said), a malformed
// answer was canned text, and a slow stream's text came 1.5x faster than asked: an agent's handling of a
// half-written answer could not be tested.
const REPLY = "The forecast for Paris is sunny with a high of twenty-one degrees and a light breeze from the west.";
const USER = [{ role: "user" as const, content: "Weather in Paris?" }];

/** Runs `read` in a turn scripted with REPLY and `fault`: what it read before its error, and the error. */
async function partial(fault: Fault, read: (got: { text: string }) => Promise<void>) {
  const got = { text: "" };
  let error: unknown;
  const session = createSession({
    agent: async () => {
      try {
        await read(got);
      } catch (caught) {
        error = caught;
      }
      return got.text;
    },
    llm: [REPLY],
    faults: [{ ...fault, calls: [1] }],
  });
  const turn = await session.send("Weather in Paris?");
  return { text: got.text, error, turn };
}

/** The text got before the cut is the start of the scripted answer, and not all of it. */
function expectCutShort(text: string): void {
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThan(REPLY.length);
  expect(REPLY.startsWith(text)).toBe(true);
}

describe("stream_cut delivers afterEvents events of the scripted answer, then the connection drops", () => {
  test.each([1, 3, 5])("a raw streaming fetch reads exactly %i events, then its body fails", async (afterEvents) => {
    const { text, error } = await partial({ fault: "stream_cut", afterEvents }, async (got) => {
      const response = await fetch("https://api.openai.com/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
        body: JSON.stringify({ model: "gpt-4o", stream: true, messages: USER }),
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        got.text += decoder.decode(value, { stream: true });
      }
    });
    expect(error).toBeInstanceOf(TypeError);
    expect(text.split("\n\n").filter((event) => event.startsWith("data:"))).toHaveLength(afterEvents);
  });

  test("the OpenAI SDK's stream yields the deltas before the cut, then throws; the call is the fault's in the trace", async () => {
    const { text, error, turn } = await partial({ fault: "stream_cut", afterEvents: 3 }, async (got) => {
      const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, messages: USER });
      for await (const chunk of stream) got.text += chunk.choices[0]?.delta.content ?? "";
    });
    expect(error).toBeInstanceOf(Error);
    expectCutShort(text);
    expect(turn.modelCalls.map((call) => [call.status, call.answeredBy?.kind])).toEqual([["failed", "fault"]]);
  });

  test("the Anthropic SDK's stream yields its text deltas before the cut, then throws", async () => {
    const { text, error } = await partial({ fault: "stream_cut", afterEvents: 5 }, async (got) => {
      const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
      const stream = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: USER });
      for await (const event of stream)
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") got.text += event.delta.text;
    });
    expect(error).toBeInstanceOf(Error);
    expectCutShort(text);
  });

  test("@google/genai's generateContentStream yields the chunks before the cut, then throws", async () => {
    const { text, error } = await partial({ fault: "stream_cut", afterEvents: 2 }, async (got) => {
      const ai = new GoogleGenAI({ apiKey: "test-key" });
      const stream = await ai.models.generateContentStream({ model: "gemini-2.5-flash", contents: "Weather in Paris?" });
      for await (const chunk of stream) got.text += chunk.text ?? "";
    });
    expect(error).toBeInstanceOf(Error);
    expectCutShort(text);
  });

  test("the AI SDK's streamText, over the OpenAI provider and with the in-process mock model, gets the text before its error", async () => {
    for (const model of [createOpenAI({ apiKey: "sk-test" }).chat("gpt-4o"), mockModel([REPLY])]) {
      const { text, error } = await partial({ fault: "stream_cut", afterEvents: 3 }, async (got) => {
        const result = streamText({ model, prompt: "Weather in Paris?", maxRetries: 0 });
        for await (const part of result.fullStream) {
          if (part.type === "text-delta") got.text += part.text;
          if (part.type === "error") throw part.error;
        }
      });
      expect(error).toBeInstanceOf(Error);
      expectCutShort(text);
    }
  });

  test("the agent's own retry gets the whole answer: the script's step was left for it", async () => {
    const texts: string[] = [];
    const session = createSession({
      agent: async () => {
        const client = new OpenAI({ apiKey: "sk-test", maxRetries: 0 });
        for (;;) {
          let text = "";
          try {
            const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, messages: USER });
            for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
            return text;
          } catch {
            texts.push(text);
          }
        }
      },
      llm: [REPLY],
      faults: [{ fault: "stream_cut", calls: [1], afterEvents: 3 }],
    });
    const turn = await session.send("Weather in Paris?");
    expect(turn.text).toBe(REPLY);
    expect(texts).toHaveLength(1);
    expectCutShort(texts[0] as string);
    expect(turn).toHaveRecovered();
  });
});

describe("malformed cuts the scripted answer's own body", () => {
  test("a JSON answer: the body is the first half of the answer's JSON, the scripted text's start in it", async () => {
    const { text } = await partial({ fault: "malformed" }, async (got) => {
      const response = await fetch("https://api.openai.com/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
        body: JSON.stringify({ model: "gpt-4o", messages: USER }),
      });
      got.text = await response.text();
    });
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toContain('"content":"The forecast for Paris');
  });

  test("a stream: the Anthropic SDK reads the deltas before the broken event, then fails to parse it", async () => {
    const { text, error } = await partial({ fault: "malformed", afterEvents: 4 }, async (got) => {
      const client = new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
      const stream = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: USER });
      for await (const event of stream)
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") got.text += event.delta.text;
    });
    expect(error).toBeInstanceOf(Error);
    expectCutShort(text);
  });
});

describe("slow paces content as a client measures it, and the trace's duration ends with the last byte", () => {
  test("the OpenAI SDK's stream: first token after firstTokenMs, then text at tokensPerSecond (within 20%)", async () => {
    const outputTokens = 60;
    const tokensPerSecond = 100;
    const arrivals: { at: number; text: string }[] = [];
    let sent = 0;
    const session = createSession({
      agent: async () => {
        const client = new OpenAI({ apiKey: "sk-test" });
        sent = performance.now();
        const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, messages: USER });
        for await (const chunk of stream) {
          const text = chunk.choices[0]?.delta.content;
          if (text) arrivals.push({ at: performance.now(), text });
        }
        return arrivals.map((arrival) => arrival.text).join("");
      },
      llm: [{ text: REPLY, usage: { outputTokens } }],
      faults: [{ fault: "slow", firstTokenMs: 150, tokensPerSecond }],
    });
    const turn = await session.send("Weather in Paris?");
    expect(turn.text).toBe(REPLY);
    const first = arrivals[0] as { at: number; text: string };
    const last = arrivals.at(-1) as { at: number };
    // The tokens after the first delta, over the time they took to come.
    const rate = (outputTokens * (1 - first.text.length / REPLY.length)) / ((last.at - first.at) / 1000);
    expect(rate).toBeGreaterThan(tokensPerSecond * 0.8);
    expect(rate).toBeLessThan(tokensPerSecond * 1.2);
    expect(first.at - sent).toBeGreaterThanOrEqual(150);
    // The call lasted until its last byte: about firstTokenMs and the tokens' time, not until its headers.
    expect(turn.modelCalls[0]?.durationMs).toBeGreaterThanOrEqual((last.at - sent) * 0.8);
  });
});

describe("a CLI agent behind the loopback server meets the same cut", () => {
  test("its process reads the events before the cut, then its connection drops", async () => {
    const { cliAgent } = await import("tooltrace/cli");
    const script = `(async () => {
      const response = await fetch(process.env.LLM_URL + "/v1/chat/completions", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "hi" }] }),
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const events = () => text.split("\\n\\n").filter((event) => event.startsWith("data:")).length;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
        }
        process.stdout.write("whole " + events());
      } catch {
        process.stdout.write("cut after " + events());
      }
    })();`;
    const agent = cliAgent({
      name: "stream-reader",
      command: () => process.execPath,
      args: () => ["-e", script],
      env: (url) => ({ LLM_URL: url }),
      answer: (stdout) => stdout,
    });
    const session = createSession({ agent, llm: [REPLY], faults: [{ fault: "stream_cut", afterEvents: 3 }] });
    expect((await session.send("hi")).text).toBe("cut after 3");
  });
});
