import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { serveOnLoopback } from "tooltrace/wire";
import { startLlmServer } from "tooltrace/msw";
import { createSession, type MockModelRequest, type SessionOptions } from "tooltrace";
import { createLlmAnswer } from "tooltrace/wire";
import { interleaved, ratioWithSpread, withSpread } from "./stats.js";

const TURNS = 50;
const SAMPLES = 10;

/** Looks the order up, then answers with what the tool said. */
function respond(request: MockModelRequest) {
  const last = request.messages.at(-1);
  if (last?.role !== "tool") return { toolCalls: [{ name: "lookup_order", input: { id: request.lastUserMessage?.slice(-3) ?? "" } }] };
  return `Order status: ${JSON.stringify(last.toolResults?.[0]?.output)}`;
}

const tools = { lookup_order: async ({ id }: { id: string }) => ({ id, status: "delivered" }) };
const schema = {
  type: "function" as const,
  function: { name: "lookup_order", parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
};

/** An OpenAI SDK agent with a tool loop, keeping its conversation across turns. */
function agent(client: OpenAI): SessionOptions<OpenAI.ChatCompletionMessageParam>["agent"] {
  return async (message, { history }) => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [...history, { role: "user", content: message }];
    for (;;) {
      const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools: [schema] });
      const reply = completion.choices[0]?.message;
      if (reply === undefined) throw new Error("no choice");
      messages.push(reply);
      if (!reply.tool_calls?.length) return { text: reply.content ?? "", messages: messages.slice(history.length) };
      for (const call of reply.tool_calls) {
        if (call.type !== "function") continue;
        const output = await tools.lookup_order(JSON.parse(call.function.arguments) as { id: string });
        messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(output) });
      }
    }
  };
}

async function fiftyTurns(
  options: Omit<SessionOptions<OpenAI.ChatCompletionMessageParam>, "agent" | "tools">,
  client: OpenAI,
): Promise<number> {
  const session = createSession<OpenAI.ChatCompletionMessageParam>({ ...options, tools, agent: agent(client) });
  const started = process.hrtime.bigint();
  for (let turn = 0; turn < TURNS; turn++) {
    const result = await session.send(`Where is order ${String(100 + turn)}?`);
    if (result.status !== "completed" || result.modelCalls.length !== 2)
      throw new Error(`turn ${turn} did not complete: ${result.error?.message ?? ""}`);
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (session.close().violations.length > 0) throw new Error("the session reported violations");
  return elapsed;
}

/**
 * 50 turns of an OpenAI SDK agent (two model calls and a tool call each): replayed from a cassette recorded
 * against a local provider, against the same turns answered by the mock model on the wire.
 */
export async function cassetteReplay() {
  const dir = mkdtempSync(join(tmpdir(), "tooltrace-bench-cassette-"));
  const path = join(dir, "fifty-turns.json");
  const wire = startLlmServer();
  const provider = await serveOnLoopback(createLlmAnswer({ respond }).answer);
  const client = new OpenAI({ apiKey: "sk-bench", maxRetries: 0 });
  try {
    const recordMs = await fiftyTurns({ upstream: provider.url, cassette: { mode: "record", path } }, client);
    await provider.close();
    const { ours, baseline } = await interleaved(SAMPLES, 2, (replay) =>
      replay ? fiftyTurns({ upstream: provider.url, cassette: { mode: "replay", path } }, client) : fiftyTurns({ llm: respond }, client),
    );
    return { recordMs, ours, baseline };
  } finally {
    wire.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

export function reportCassetteReplay(result: Awaited<ReturnType<typeof cassetteReplay>>): string {
  return [
    `${TURNS} turns replayed from a cassette (100 model exchanges, ${TURNS} tool calls):   median ${withSpread(result.ours, ms)}`,
    `the same turns on the mock model on the wire (baseline):                median ${withSpread(result.baseline, ms)}`,
    `ratio: ${ratioWithSpread(result.ours, result.baseline)}   (recording them against a local provider took ${result.recordMs.toFixed(0)} ms, once)`,
  ].join("\n");
}
