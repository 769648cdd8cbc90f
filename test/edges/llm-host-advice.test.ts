import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { createSession } from "tooltrace";

// A strict session's refusal of a request to an LLM API said "a stub rule ... or an HTTP mock ... or allow the
// host: allowHosts: [generativelanguage.googleapis.com]": following it sends the request to Google. It never
// named `llm`.
const CALLS: Record<string, () => Promise<unknown>> = {
  "OpenAI Chat Completions": () =>
    new OpenAI({ apiKey: "sk-test", maxRetries: 0 }).chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
    }),
  "OpenAI Responses": () => new OpenAI({ apiKey: "sk-test", maxRetries: 0 }).responses.create({ model: "gpt-4o", input: "hi" }),
  "Anthropic Messages": () =>
    new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 }).messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    }),
  "Gemini generateContent": () =>
    new GoogleGenAI({ apiKey: "test-key" }).models.generateContent({ model: "gemini-2.5-flash", contents: "hi" }),
};

describe.each(Object.entries(CALLS))("a refused request to %s names `llm`, never allowHosts", (_api, call) => {
  test("in a strict session", async () => {
    let error: unknown;
    const session = createSession({
      agent: async () => {
        await call().catch((caught: unknown) => {
          error = caught;
        });
        return "done";
      },
      tools: {},
      strict: true,
    });
    await session.send("hi");
    const violations = session.takeViolations();
    expect(violations).toHaveLength(1);
    for (const said of [violations[0] as string, String((error as Error | undefined)?.message)]) {
      expect(said).toContain("createSession({ llm })");
      expect(said).toContain("upstream");
      expect(said).not.toContain("allowHosts");
    }
  });

  test("outside strict mode (the hermetic run)", async () => {
    let error: unknown;
    const session = createSession({
      agent: async () => {
        await call().catch((caught: unknown) => {
          error = caught;
        });
        return "done";
      },
      tools: {},
    });
    await session.send("hi");
    // The hermetic refusal is the session's violation (it fails the test even though the agent caught it).
    const violations = session.takeViolations();
    expect(violations).toHaveLength(1);
    for (const said of [violations[0] as string, String((error as Error | undefined)?.message)]) {
      expect(said).toContain("createSession({ llm })");
      expect(said).not.toContain("allowHosts");
    }
  });
});
