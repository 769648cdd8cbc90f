import { currentTurnContext } from "../src/pipeline/turn-context.js";
import { serveOnLoopback } from "tooltrace/wire";
import { createSession, type MockModelRequest } from "tooltrace";
import { createAgentProcessAnswer, createLlmAnswer } from "../src/catchers/wire-answer.js";
import { WireToolCalls } from "../src/catchers/wire-tool-calls.js";
import { interleaved, median, ratioWithSpread, withSpread } from "./stats.js";

const CYCLES_PER_SAMPLE = 50;
const SAMPLES = 20;
const TOOLS = [
  {
    name: "Bash",
    description: "Run a command.",
    input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
];

const respond = (request: MockModelRequest) =>
  request.toolResults.length === 0 ? { toolCalls: [{ name: "Bash", input: { command: "ls" } }] } : "done";

/** One two-request exchange as Claude Code makes it: the model calls Bash, the CLI sends the result back. */
async function cycle(url: string): Promise<void> {
  const post = async (messages: unknown[]) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "claude-sonnet-4-6", max_tokens: 1024, tools: TOOLS, messages }),
    });
    return (await response.json()) as { content: { type: string; id?: string; text?: string }[] };
  };
  const user = { role: "user", content: "List the files." };
  const first = await post([user]);
  const call = first.content.find((part) => part.type === "tool_use");
  if (call?.id === undefined) throw new Error("no tool call");
  const second = await post([
    user,
    { role: "assistant", content: first.content },
    { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "a.txt\nb.txt" }] },
  ]);
  if (second.content[0]?.text !== "done") throw new Error("unexpected reply");
}

/** Milliseconds per model request over a real socket, `CYCLES_PER_SAMPLE` exchanges inside one session turn. */
async function perRequest(proxy: boolean): Promise<number> {
  let ms = 0;
  const session = createSession({
    llm: respond,
    agent: async () => {
      const context = currentTurnContext();
      if (context === undefined) throw new Error("no turn");
      const answer = proxy ? createAgentProcessAnswer({ context, wireTools: new WireToolCalls() }) : createLlmAnswer();
      const server = await serveOnLoopback(answer.answer);
      const url = proxy ? `${server.url}/v1/messages` : `${server.url}${session.route}/v1/messages`;
      const started = performance.now();
      for (let i = 0; i < CYCLES_PER_SAMPLE; i++) await cycle(url);
      ms = (performance.now() - started) / (CYCLES_PER_SAMPLE * 2);
      await server.close();
      return "";
    },
  });
  const turn = await session.send("go");
  if (turn.modelCalls.length !== CYCLES_PER_SAMPLE * 2) throw new Error(`expected every request recorded, got ${turn.modelCalls.length}`);
  if (proxy && turn.toolCalls.length !== CYCLES_PER_SAMPLE) throw new Error("the proxy did not catch every tool call");
  session.close();
  return ms;
}

/**
 * The CLI proxy (the wire mock in front of one CLI, catching each tool call in the replies and putting the
 * CLI's results back through the chain) against the wire mock alone on the same socket, both in a session.
 */
export async function cliProxy() {
  return interleaved(SAMPLES, 2, perRequest);
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

export function reportCliProxy(result: Awaited<ReturnType<typeof cliProxy>>): string {
  return [
    `a model request through the CLI proxy (tool calls caught on the wire): median ${withSpread(result.ours, ms)}`,
    `the same request to the wire mock alone, in a session (baseline):      median ${withSpread(result.baseline, ms)}`,
    `added per model request: ${(median(result.ours) - median(result.baseline)).toFixed(3)} ms; ratio ${ratioWithSpread(result.ours, result.baseline)}`,
  ].join("\n");
}
