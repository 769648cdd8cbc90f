import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runJest } from "../fixtures/jest-run.js";
import { type SlowProvider, startRateLimitedProvider } from "../fixtures/slow-provider.js";

// A provider on loopback, in a process of its own, answering in 300 ms: 5 requests at once, 429 past them.
let provider: SlowProvider;
beforeAll(async () => {
  provider = await startRateLimitedProvider(300, 5, 429);
});
afterAll(() => provider.stop());

test("under Jest, globals.tooltrace.providers holds trials over the OpenAI SDK to the limit", { timeout: 120_000 }, async () => {
  const config = join(import.meta.dirname, "../fixtures/jest-limits-project/jest.config.mjs");
  const results = await runJest(config, { esm: true, env: { PROVIDER_URL: provider.url } });
  const result = results.get("trials held to the run's limit");
  expect(result?.failureMessages.join("\n")).toBe("");
  expect(result?.status).toBe("passed");
  expect(await provider.stats()).toMatchObject({ max: 5, answered: 10, rejected: 0 });
});
