import { setupServer } from "msw/node";
import { createSession, type ToolStub } from "tooltrace";
import { httpCatcher } from "tooltrace/msw";
import { interleaved, median, withSpread } from "./stats.js";

const SAMPLES = 20;
const ms = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** A rule set at every limit at once: 100 rules, 200 patterns of up to 1,000 characters, a 100-branch anyOf, a 1,000-value enum, within 20,000 JSON nodes. */
function rulesAtTheLimits(): ToolStub[] {
  return Array.from({ length: 100 }, (_, i) => ({
    id: `r${i}`,
    tool: "search",
    match: {
      q: { pattern: `^(${"ab|".repeat(240)}x${i})+$` },
      note: { pattern: `(a+)+${"c".repeat(900)}$` },
      kind: { anyOf: Array.from({ length: i === 0 ? 100 : 40 }, (_, b) => ({ const: `k${i}-${b}` })) },
      tag: { enum: Array.from({ length: i === 0 ? 1000 : 30 }, (_, e) => `t${e}`) },
    },
    outcome: { response: { i } },
  }));
}

/** 100 plain rules: the baseline a setup at the limits is compared with. */
function plainRules(): ToolStub[] {
  return Array.from({ length: 100 }, (_, i) => ({
    id: `r${i}`,
    tool: "search",
    match: { q: { const: `q${i}` } },
    outcome: { response: { i } },
  }));
}

/** Setup (validate, compile) and one call that misses every rule with hostile strings, through a strict session. */
async function setupAndCall(stubs: ToolStub[]): Promise<{ setup: number; call: number }> {
  const tools = { search: async (_input: { q: string; note?: string }) => "real" };
  let call = 0;
  const started = process.hrtime.bigint();
  const session = createSession({
    tools,
    stubs,
    agent: async () => {
      const at = process.hrtime.bigint();
      await tools.search({ q: `${"ab".repeat(5000)}!`, note: "a".repeat(5000) }).catch(() => undefined);
      call = ms(at);
      return "";
    },
  });
  const setup = ms(started);
  await session.send("go");
  session.close();
  return { setup, call };
}

/** An HTTP mock URL with many wildcards and a RegExp URL with a nested quantifier, against a 5,000-character path. */
async function hostileUrls(): Promise<number> {
  const session = createSession({
    tools: {},
    http: [
      { id: "glob", url: `https://api.test/${"*a".repeat(40)}*b`, outcome: { json: {} } },
      { id: "nested", url: /^https:\/\/api\.test\/(a+)+$/, outcome: { json: {} } },
      { id: "fallback", url: "https://api.test/*", outcome: { json: { ok: true } } },
    ],
    agent: async () => {
      await (await fetch(`https://api.test/${"a".repeat(5000)}!`)).json();
      return "";
    },
  });
  const started = process.hrtime.bigint();
  await session.send("go");
  const elapsed = ms(started);
  session.close();
  return elapsed;
}

export async function hostileInput() {
  const setups = await interleaved(SAMPLES, 2, async (ours) => (await setupAndCall(ours ? rulesAtTheLimits() : plainRules())).setup);
  const calls: number[] = [];
  for (let i = 0; i < SAMPLES; i++) calls.push((await setupAndCall(rulesAtTheLimits())).call);
  const server = setupServer(httpCatcher());
  server.listen({ onUnhandledRequest: "error" });
  const urls: number[] = [];
  try {
    for (let i = 0; i < SAMPLES; i++) urls.push(await hostileUrls());
  } finally {
    server.close();
  }
  return { setups, calls, urls };
}

export function reportHostileInput(result: Awaited<ReturnType<typeof hostileInput>>): string {
  const fine = (value: number) => `${value.toFixed(2)} ms`;
  const max = (values: number[]) => fine(Math.max(...values));
  return [
    `createSession with a rule set at every limit:       median ${withSpread(result.setups.ours, fine)}, max ${max(result.setups.ours)}`,
    `createSession with 100 plain rules (baseline):      median ${withSpread(result.setups.baseline, fine)}`,
    `one call missing 100 rules with 15,000 hostile chars: median ${withSpread(result.calls, fine)}, max ${max(result.calls)}`,
    `a turn fetching a 5,000-character hostile URL:      median ${withSpread(result.urls, fine)}, max ${max(result.urls)} (aim: every one < 100 ms)`,
    `ratio of medians, setup: ${(median(result.setups.ours) / median(result.setups.baseline)).toFixed(1)}x`,
  ].join("\n");
}
