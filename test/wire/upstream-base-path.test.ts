import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { createLlmAnswer, type LoopbackServer, serveOnLoopback } from "tooltrace/wire";

// `upstream: "http://host/v1"`, the form every SDK's baseURL takes, sent requests to /v1/v1/chat/completions:
// only a bare origin worked.
const paths: string[] = [];
let upstream: LoopbackServer;
beforeAll(async () => {
  const inner = createLlmAnswer({ respond: "from the upstream" }).answer;
  upstream = await serveOnLoopback((request) => {
    const { pathname, search } = new URL(request.url);
    paths.push(pathname);
    // A gateway's prefix (`/gateway/openai`) is its own: the provider behind it sees the provider's path.
    const path = pathname.replace(/^\/gateway\/openai(?!\/v1)/, "/v1").replace(/^\/gateway\/[a-z]+/, "");
    return inner({
      method: request.method,
      url: `http://127.0.0.1${path}${search}`,
      headers: request.headers,
      text: () => request.text(),
    } as unknown as Request);
  });
});
afterAll(() => upstream.close());

const ask: Record<string, () => Promise<string>> = {
  chat: async () =>
    (
      await new OpenAI({ apiKey: "sk-test", maxRetries: 0 }).chat.completions.create({
        model: "gpt-4o",
        messages: [{ role: "user", content: "hi" }],
      })
    ).choices[0]?.message.content ?? "",
  responses: async () =>
    (await new OpenAI({ apiKey: "sk-test", maxRetries: 0 }).responses.create({ model: "gpt-4o", input: "hi" })).output_text,
  anthropic: async () => {
    const message = await new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 }).messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    return message.content[0]?.type === "text" ? message.content[0].text : "";
  },
  gemini: async () =>
    (await new GoogleGenAI({ apiKey: "test-key" }).models.generateContent({ model: "gemini-2.5-flash", contents: "hi" })).text ?? "",
};

const CASES: readonly [api: keyof typeof ask, base: string, path: string][] = [
  ["chat", "/v1", "/v1/chat/completions"],
  ["chat", "", "/v1/chat/completions"],
  ["chat", "/gateway/openai", "/gateway/openai/chat/completions"],
  ["responses", "/v1", "/v1/responses"],
  ["anthropic", "/v1", "/v1/messages"],
  ["anthropic", "", "/v1/messages"],
  ["anthropic", "/gateway/anthropic", "/gateway/anthropic/v1/messages"],
  ["gemini", "/v1beta", "/v1beta/models/gemini-2.5-flash:generateContent"],
  ["gemini", "/v1", "/v1/models/gemini-2.5-flash:generateContent"],
  ["gemini", "", "/v1/models/gemini-2.5-flash:generateContent"],
];

describe("upstream as the SDKs write a base URL: a path prefix joined once", () => {
  test.each(CASES)("%s with upstream <origin>%s reaches %s", async (api, base, path) => {
    const session = createSession({ agent: ask[api] as () => Promise<string>, upstream: `${upstream.url}${base}` });
    const from = paths.length;
    const turn = await session.send("hi");
    expect(paths.slice(from)).toEqual([path]);
    expect(turn.text).toBe("from the upstream");
  });
});
