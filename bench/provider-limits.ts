import { join } from "node:path";
import OpenAI from "openai";
import { createSession, trials, useProviderLimits } from "tooltrace";
import { acquireProviderSlot, startRunLimiter, useLimiterHost } from "../src/base/provider-gate.js";
import { limitFor, setProviderLimits } from "../src/base/provider-limits.js";
import { startSlowProvider } from "../test/fixtures/slow-provider.js";
import { formatMs, median, withSpread } from "./stats.js";

const TRIALS = 100;
const ALLOWED = 5;
const LATENCY_MS = 300;
const CONCURRENCY = 20;
const SAMPLES = 3;
const ACQUIRES = 5000;
const root = join(import.meta.dirname, "..", "..");

/**
 * The figure: `trials(100)` at concurrency 20 of a one-call agent (the OpenAI SDK, retries off, through a
 * session's `upstream`) against a provider on loopback, in a process of its own, that answers in 300 ms, allows
 * 5 requests at once and answers the sixth with 429 and `Retry-After: 0.2`; with `providers: { openai:
 * { maxInFlight: 5 } }` taken from the run's limiter on loopback, as a Vitest worker takes it. Against what 5 at
 * a time allows (100 / 5 × 300 ms). Then the limiter's own cost per request: a slot taken and given back, with
 * nothing else waiting, through the loopback limiter and in memory.
 */
export async function providerLimits() {
  const provider = await startSlowProvider(LATENCY_MS, join(root, "test", "fixtures", "rate-limited-provider.mjs"), [
    String(ALLOWED),
    "429",
  ]);
  const agent = async (message: string) => {
    const client = new OpenAI({ apiKey: "sk-bench", maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: message }] });
    return reply.choices[0]?.message.content ?? "";
  };
  useLimiterHost(await startRunLimiter());
  useProviderLimits({ openai: { maxInFlight: ALLOWED } });
  const runs: number[] = [];
  let rejected = 0;
  let most = 0;
  try {
    for (let sample = 0; sample < SAMPLES; sample++) {
      await provider.reset();
      const started = performance.now();
      const report = await trials(TRIALS, { concurrency: CONCURRENCY, print: false }, async ({ seed, index }) => {
        const turn = await createSession({ seed, agent, upstream: provider.url }).send(`trial ${index}`);
        if (turn.text !== `answer to trial ${index}`) throw new Error(`trial ${index} got ${JSON.stringify(turn.text)}`);
      });
      runs.push(performance.now() - started);
      if (report.passed !== TRIALS) throw new Error(`${TRIALS - report.passed} trials failed: ${report.summary()}`);
      const stats = await provider.stats();
      rejected += stats.rejected ?? 0;
      most = Math.max(most, stats.max);
    }
  } finally {
    provider.stop();
  }
  const overhead = { host: await perAcquire(), memory: 0 };
  useLimiterHost(undefined);
  overhead.memory = await perAcquire();
  setProviderLimits({});
  return { runs, ideal: (TRIALS / ALLOWED) * LATENCY_MS, rejected, most, overhead };
}

/** Microseconds one request pays the limiter when nothing else waits: its slot taken, then given back. */
async function perAcquire(): Promise<number> {
  const limit = limitFor("openai", "bench-model");
  const times: number[] = [];
  for (let i = 0; i < ACQUIRES; i++) {
    const started = performance.now();
    const slot = await acquireProviderSlot(limit);
    slot?.release();
    times.push(performance.now() - started);
  }
  return median(times.slice(ACQUIRES / 5)) * 1000;
}

export function reportProviderLimits(result: Awaited<ReturnType<typeof providerLimits>>): string {
  const ratios = result.runs.map((ms) => ms / result.ideal);
  return [
    `trials(${TRIALS}) at concurrency ${CONCURRENCY} against a ${LATENCY_MS} ms provider that allows ${ALLOWED} at once (429 past them), providers limit ${ALLOWED}: median ${withSpread(result.runs, formatMs)}`,
    `  what ${ALLOWED} at a time allows: ${formatMs(result.ideal)}; ratio ${median(ratios).toFixed(2)}x (target at most 1.5x); most at once ${result.most}, 429s ${result.rejected}`,
    `the limiter per request (a slot taken and given back, nothing waiting): ${result.overhead.host.toFixed(0)} µs through the run's limiter on loopback, ${result.overhead.memory.toFixed(1)} µs in memory (target at most 1 ms)`,
  ].join("\n");
}

if (process.argv[1] === import.meta.filename) console.log(reportProviderLimits(await providerLimits()));
