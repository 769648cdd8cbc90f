import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";
import { MockLanguageModelV3 } from "ai/test";
import { test } from "vitest";
test("probe", async () => {
let n = 0;
const prompts: unknown[] = [];
const u = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const model = new MockLanguageModelV3({ doGenerate: async (o) => { prompts.push(o.prompt); n++; return n === 1 ? { content: [{ type: "tool-call", toolCallId: "c1", toolName: "t", input: '{"id":42}' }, { type: "tool-call", toolCallId: "c2", toolName: "nope", input: '{}' }], finishReason: { unified: "tool-calls", raw: "tool-calls" }, usage: u, warnings: [] } : { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: "stop" }, usage: u, warnings: [] }; } });
const tools = { t: tool({ inputSchema: z.object({ id: z.string() }), execute: async () => "ran" }) };
const r = await generateText({ model, tools, prompt: "x", stopWhen: stepCountIs(3) });
console.log(JSON.stringify(prompts[1], null, 1));
});
