import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { createSession, mockModel } from "../src/index.js";
import { formatNs, median } from "./stats.js";

const TURNS_PER_SAMPLE = 100;
const SAMPLES = 30;

const tools = {
  list_tasks: tool({
    description: "List tasks.",
    inputSchema: z.object({ status: z.string() }),
    execute: async () => ({ tasks: ["Buy milk", "Walk dog"] }),
  }),
};
const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** The AI SDK's own test model, answering the same two steps: a tool call, then text after the tool result. */
function baselineModel() {
  return new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      const sawResult = options.prompt.some((message) => message.role === "tool");
      return sawResult
        ? { content: [{ type: "text", text: "You have 2 tasks." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }
        : {
            content: [{ type: "tool-call", toolCallId: "call_1", toolName: "list_tasks", input: '{"status":"open"}' }],
            finishReason: { unified: "tool-calls", raw: "tool-calls" },
            usage,
            warnings: [],
          };
    },
  });
}

/** tooltrace's mock model with a responder making the same decision from the request view. */
function tooltraceModel() {
  return mockModel(({ toolResults }) =>
    toolResults.length > 0
      ? { text: "You have 2 tasks.", usage: { inputTokens: 20, outputTokens: 5 } }
      : { toolCalls: [{ name: "list_tasks", input: { status: "open" }, id: "call_1" }], usage: { inputTokens: 20, outputTokens: 5 } },
  );
}

async function turn(model: Parameters<typeof generateText>[0]["model"]): Promise<void> {
  const result = await generateText({ model, tools, prompt: "What tasks do I have?", stopWhen: stepCountIs(3) });
  if (result.text !== "You have 2 tasks." || result.steps.length !== 2) throw new Error("the turn did not take two steps");
}

/** The baseline: the AI SDK's test model, no session. */
async function baselineTurns(): Promise<number> {
  const model = baselineModel();
  const started = process.hrtime.bigint();
  for (let i = 0; i < TURNS_PER_SAMPLE; i++) await turn(model);
  return Number(process.hrtime.bigint() - started) / TURNS_PER_SAMPLE;
}

/** tooltrace: the mock model inside a session, so every model and tool call goes through the chain and the log. */
async function sessionTurns(): Promise<number> {
  const model = tooltraceModel();
  const session = createSession({ tools, agent: async () => (await turn(model), "") });
  const started = process.hrtime.bigint();
  for (let i = 0; i < TURNS_PER_SAMPLE; i++) {
    const recorded = await session.send("What tasks do I have?");
    if (recorded.status !== "completed" || recorded.modelCalls.length !== 2 || recorded.toolCalls.length !== 1)
      throw new Error("the session did not record the turn");
  }
  const ns = Number(process.hrtime.bigint() - started) / TURNS_PER_SAMPLE;
  session.close();
  return ns;
}

/** A two-step tool turn (generateText) through each model, samples interleaved so drift hits both alike. */
export async function modelTurn() {
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 3; i++) {
    await sessionTurns();
    await baselineTurns();
  }
  for (let i = 0; i < SAMPLES; i++) {
    // Alternate which runs first (ABBA), so warm-up and drift do not favour either side.
    if (i % 2 === 0) {
      ours.push(await sessionTurns());
      baseline.push(await baselineTurns());
    } else {
      baseline.push(await baselineTurns());
      ours.push(await sessionTurns());
    }
  }
  return { oursNs: median(ours), baselineNs: median(baseline) };
}

export function reportModelTurn(result: Awaited<ReturnType<typeof modelTurn>>): string {
  return [
    `two-step tool turn in a session, mockModel(): median ${formatNs(result.oursNs)} per turn (model and tool calls through the chain, recorded)`,
    `two-step tool turn, MockLanguageModelV3:       median ${formatNs(result.baselineNs)} per turn (baseline, no session, same run)`,
    `ratio: ${(result.oursNs / result.baselineNs).toFixed(2)}x`,
  ].join("\n");
}
