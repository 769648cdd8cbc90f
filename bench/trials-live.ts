import { join } from "node:path";
import OpenAI from "openai";
import { createSession, trials } from "tooltrace";
import { startSlowProvider } from "../test/fixtures/slow-provider.js";
import { formatMs, interleaved, ratioWithSpread, withSpread } from "./stats.js";

const TRIALS = 20;
const CONCURRENCY = 8;
const LATENCY_MS = 300;
const SAMPLES = 5;
const root = join(import.meta.dirname, "..", "..");

/**
 * `trials(20)` of a one-call agent (the OpenAI SDK, through a session's `upstream`) against an OpenAI-compatible
 * provider on loopback, in a process of its own, that answers after 300 ms: at concurrency 8 and at 1 (the
 * baseline), alternating; milliseconds per `trials()` call, and the most requests the provider had at once.
 */
export async function trialsLive() {
  const provider = await startSlowProvider(LATENCY_MS, join(root, "test", "fixtures", "slow-provider.mjs"));
  const agent = async (message: string) => {
    const client = new OpenAI({ apiKey: "sk-bench", maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: message }] });
    return reply.choices[0]?.message.content ?? "";
  };
  const inFlight = { ours: 0, baseline: 0 };
  try {
    const times = await interleaved(SAMPLES, 1, async (ours) => {
      await provider.reset();
      const started = performance.now();
      const report = await trials(TRIALS, { concurrency: ours ? CONCURRENCY : 1, print: false }, async ({ seed, index }) => {
        const turn = await createSession({ seed, agent, upstream: provider.url }).send(`trial ${index}`);
        if (turn.text !== `answer to trial ${index}`) throw new Error(`trial ${index} got ${JSON.stringify(turn.text)}`);
      });
      const elapsed = performance.now() - started;
      if (report.passed !== TRIALS) throw new Error(`${TRIALS - report.passed} trials failed: ${report.summary()}`);
      const { max } = await provider.stats();
      inFlight[ours ? "ours" : "baseline"] = Math.max(inFlight[ours ? "ours" : "baseline"], max);
      return elapsed;
    });
    return { ...times, inFlight };
  } finally {
    provider.stop();
  }
}

export function reportTrialsLive(result: Awaited<ReturnType<typeof trialsLive>>): string {
  return [
    `trials(${TRIALS}) against a ${LATENCY_MS} ms provider on loopback, concurrency ${CONCURRENCY}: median ${withSpread(result.ours, formatMs)} (at most ${result.inFlight.ours} requests at once)`,
    `trials(${TRIALS}) against the same provider, concurrency 1 (baseline): median ${withSpread(result.baseline, formatMs)} (at most ${result.inFlight.baseline} at once)`,
    `ratio: ${ratioWithSpread(result.ours, result.baseline)}`,
  ].join("\n");
}

if (process.argv[1] === import.meta.filename) console.log(reportTrialsLive(await trialsLive()));
