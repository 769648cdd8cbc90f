import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { ApiError, GoogleGenAI, type Content } from "@google/genai";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createSession, type Session } from "tooltrace";
import { createLlmAnswer, serveOnLoopback } from "tooltrace/wire";

const weatherDeclaration = {
  name: "get_weather",
  description: "The weather in a city",
  parametersJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("Gemini's generateContent, as @google/genai calls it", () => {
  test("a function-calling round trip: the call without an id in the script, the result paired by name, the trace in Gemini's terms", async () => {
    const session = createSession({
      agent: async (message: string) => {
        const ai = new GoogleGenAI({ apiKey: "test-key" });
        const contents: Content[] = [{ role: "user", parts: [{ text: message }] }];
        const config = { systemInstruction: "You are terse.", tools: [{ functionDeclarations: [weatherDeclaration] }] };
        const first = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
        const call = first.functionCalls?.[0];
        if (call === undefined) return first.text ?? "";
        contents.push(first.candidates?.[0]?.content as Content, {
          role: "user",
          parts: [{ functionResponse: { name: call.name, response: { output: { tempC: 21 } } } }],
        });
        const second = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
        return second.text ?? "";
      },
      llm: [
        { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] },
        ({ toolResults }) => `It is ${(toolResults[0]?.output as { tempC?: number } | undefined)?.tempC} °C.`,
      ],
    });
    const turn = await session.send("Weather in Paris?");
    expect(turn.text).toBe("It is 21 °C.");
    const [first, second] = turn.modelCalls;
    expect(first?.provider).toBe("google.gemini");
    expect(first?.model).toBe("gemini-2.5-flash");
    expect(first?.http?.url).toMatch(
      /^https:\/\/generativelanguage\.googleapis\.com\/v1(beta)?\/models\/gemini-2\.5-flash:generateContent$/,
    );
    const view = first?.request;
    expect(view?.messages).toEqual([
      { role: "system", text: "You are terse." },
      { role: "user", text: "Weather in Paris?" },
    ]);
    expect(view?.tools).toEqual([expect.objectContaining({ name: "get_weather", inputSchema: weatherDeclaration.parametersJsonSchema })]);
    expect(first?.reply.toolCalls).toEqual([expect.objectContaining({ name: "get_weather", input: { city: "Paris" } })]);
    expect((second?.request as { toolResults?: unknown[] } | undefined)?.toolResults).toEqual([
      expect.objectContaining({ name: "get_weather", output: { tempC: 21 }, isError: false }),
    ]);
  });

  test("generateContentStream: server-sent events @google/genai reads whole, with the usage in the last chunk", async () => {
    const session = createSession({
      agent: async (message: string) => {
        const ai = new GoogleGenAI({ apiKey: "test-key" });
        let text = "";
        let total: number | undefined;
        for await (const chunk of await ai.models.generateContentStream({ model: "gemini-2.5-flash", contents: message })) {
          text += chunk.text ?? "";
          total = chunk.usageMetadata?.totalTokenCount ?? total;
        }
        return `${text} (${total} tokens)`;
      },
      llm: [{ text: "A reply long enough to arrive in several chunks of the stream.", usage: { inputTokens: 7, outputTokens: 13 } }],
    });
    const turn = await session.send("hi");
    expect(turn.text).toBe("A reply long enough to arrive in several chunks of the stream. (20 tokens)");
    expect(turn.modelCalls[0]?.streamed).toBe(true);
  });

  test("countTokens, models.list and a model that does not exist, in Google's own shapes", async () => {
    const llm = createLlmAnswer({ respond: "hello", models: ["gemini-2.5-flash"] });
    const server = await serveOnLoopback(llm.answer);
    try {
      const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: server.url } });
      const counted = await ai.models.countTokens({ model: "gemini-2.5-flash", contents: "How many tokens is this?" });
      expect(counted.totalTokens).toBeGreaterThan(0);
      const names: (string | undefined)[] = [];
      for await (const model of await ai.models.list()) names.push(model.name);
      expect(names).toEqual(["models/gemini-2.5-flash"]);
      const missing = await ai.models.generateContent({ model: "gemini-0", contents: "hi" }).catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(ApiError);
      expect((missing as ApiError).status).toBe(404);
      expect((missing as ApiError).message).toContain("models/gemini-0 is not found for API version v1beta");
      // Without alt=sse, streamGenerateContent answers one JSON array of chunks, as the REST API does.
      const array = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, {
        method: "POST",
        body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
      });
      const chunks = (await array.json()) as { candidates: { content: { parts: { text?: string }[] } }[] }[];
      expect(chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts.map((part) => part.text ?? "") ?? []).join("")).toBe("hello");
      const empty = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
        method: "POST",
        body: JSON.stringify({ contents: [{ role: "user", parts: [] }] }),
      });
      expect(empty.status).toBe(400);
      const bad = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:generateContent`, { method: "POST", body: "{}" });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({
        error: { code: 400, message: "* GenerateContentRequest.contents: contents is not specified", status: "INVALID_ARGUMENT" },
      });
    } finally {
      await server.close();
    }
  });

  test("a session's route in the base URL attributes a request that arrives on a socket to its turn", async () => {
    const server = await serveOnLoopback(createLlmAnswer().answer);
    try {
      const session: Session = createSession({
        agent: async (message: string): Promise<string> => {
          const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${server.url}${session.route}` } });
          return (await ai.models.generateContent({ model: "gemini-2.5-flash", contents: message })).text ?? "";
        },
        llm: ["over the socket"],
      });
      const turn = await session.send("hi");
      expect(turn.text).toBe("over the socket");
      expect(turn.modelCalls).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test("a 429 reaches @google/genai as its ApiError with Google's RESOURCE_EXHAUSTED (it does not retry by default)", async () => {
    const session = createSession({
      agent: async (message: string) => {
        const ai = new GoogleGenAI({ apiKey: "test-key" });
        return ai.models.generateContent({ model: "gemini-2.5-flash", contents: message }).then(
          (response) => response.text ?? "",
          (error: ApiError) => `${error.status}: ${error.message}`,
        );
      },
      llm: ["never"],
      faults: [{ fault: "rate_limit" }],
    });
    const turn = await session.send("hi");
    expect(turn.text).toMatch(/^429: .*"status":"RESOURCE_EXHAUSTED"/);
    expect(turn).toHaveGivenUpCleanly();
  });
});

describe("Gemini through the AI SDK's @ai-sdk/google", () => {
  const google = createGoogleGenerativeAI({ apiKey: "test-key" });
  const tools = {
    get_weather: tool({
      description: "The weather in a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, tempC: 21 }),
    }),
  };

  test("generateText's tool loop, with a 503 retried by the AI SDK on the way", async () => {
    const session = createSession({
      agent: async (message: string) =>
        (await generateText({ model: google("gemini-2.5-flash"), tools, prompt: message, stopWhen: stepCountIs(3) })).text,
      tools,
      llm: [
        { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] },
        ({ toolResults }) => `Result: ${JSON.stringify(toolResults[0]?.output)}`,
      ],
      faults: [{ fault: "overloaded", calls: [2], retryAfter: 0.01 }],
    });
    const turn = await session.send("Weather in Paris?");
    expect(turn.text).toBe('Result: {"city":"Paris","tempC":21}');
    expect(turn).toHaveCalledTool("get_weather", { input: { city: "Paris" }, output: { city: "Paris", tempC: 21 } });
    expect(turn.modelCalls.map((call) => call.http?.statusCode)).toEqual([200, 503, 200]);
    expect(turn).toHaveRecovered();
  });

  test("streamText, text and a tool call streamed", async () => {
    const session = createSession({
      agent: async (message: string) => {
        const result = streamText({ model: google("gemini-2.5-flash"), tools, prompt: message, stopWhen: stepCountIs(3) });
        return await result.text;
      },
      tools,
      llm: [{ text: "Let me look.", toolCalls: [{ name: "get_weather", input: { city: "Oslo" } }] }, "It is 21 °C in Oslo."],
    });
    const turn = await session.send("Weather in Oslo?");
    expect(turn.text).toBe("It is 21 °C in Oslo.");
    expect(turn).toHaveCalledTool("get_weather", { input: { city: "Oslo" } });
    expect(turn.modelCalls.every((call) => call.streamed)).toBe(true);
  });
});
