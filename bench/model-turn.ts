import { execFileSync } from "node:child_process";
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { createSession, mockModel } from "tooltrace";
import { formatNs, ratioWithSpread, withSpread } from "./stats.js";

const TURNS = 5_000;
const WARMUP = 2_000;
const SAMPLES = 10;

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

/** Nanoseconds per turn of `count` turns of one variant, in this process. */
async function turns(variant: "ours" | "baseline", count: number): Promise<number> {
  if (variant === "baseline") {
    const model = baselineModel();
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i++) await turn(model);
    return Number(process.hrtime.bigint() - started) / count;
  }
  // A session of 100 turns at a time, as a test makes a few: every model and tool call through the chain and the log.
  const model = tooltraceModel();
  let ns = 0;
  for (let done = 0; done < count; done += 100) {
    const session = createSession({ tools, agent: async () => (await turn(model), "") });
    const started = process.hrtime.bigint();
    for (let i = 0; i < 100; i++) {
      const recorded = await session.send("What tasks do I have?");
      if (recorded.status !== "completed" || recorded.modelCalls.length !== 2 || recorded.toolCalls.length !== 1)
        throw new Error("the session did not record the turn");
    }
    ns += Number(process.hrtime.bigint() - started);
    session.close();
  }
  return ns / count;
}

/**
 * A two-step tool turn (generateText) through each model. Each sample is a fresh process running one
 * variant, so neither shares the other's compiled code or its async-context hooks (the AI SDK alone never
 * turns Node 20's on); samples alternate (ABBA) so drift hits both alike.
 */
export async function modelTurn() {
  const ours: number[] = [];
  const baseline: number[] = [];
  const sample = (variant: "ours" | "baseline") =>
    Number(execFileSync(process.execPath, [import.meta.filename, variant], { encoding: "utf8" }).trim());
  for (let i = 0; i < SAMPLES; i++) {
    const order = i % 2 === 0 ? (["ours", "baseline"] as const) : (["baseline", "ours"] as const);
    for (const variant of order) (variant === "ours" ? ours : baseline).push(sample(variant));
  }
  return { ours, baseline };
}

export function reportModelTurn(result: Awaited<ReturnType<typeof modelTurn>>): string {
  return [
    `two-step tool turn in a session, mockModel(): median ${withSpread(result.ours, formatNs)} per turn (model and tool calls through the chain, recorded)`,
    `two-step tool turn, MockLanguageModelV3:       median ${withSpread(result.baseline, formatNs)} per turn (baseline, no session; a process of its own per sample)`,
    `ratio: ${ratioWithSpread(result.ours, result.baseline)}`,
  ].join("\n");
}

// A sample: `node model-turn.js ours|baseline` prints the nanoseconds per turn after a warm-up.
const variant = process.argv[2];
if (process.argv[1] === import.meta.filename && (variant === "ours" || variant === "baseline")) {
  await turns(variant, WARMUP);
  console.log(await turns(variant, TURNS));
}
