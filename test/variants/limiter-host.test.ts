import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import { limiterClient } from "../../src/base/limiter-client.js";
import { type LimiterHost, startLimiterHost } from "../../src/base/limiter-host.js";
import { acquireProviderSlot } from "../../src/base/provider-gate.js";
import { KeyedSlots } from "../../src/base/slots.js";

let host: LimiterHost;
beforeAll(async () => {
  host = await startLimiterHost();
});
afterAll(() => host.close());

const never = () => Promise.reject(new Error("the fallback was used"));

test("two clients (two workers) share one limit per key; a release hands the slot to the longest waiter", async () => {
  const first = limiterClient(host.address, never);
  const second = limiterClient(host.address, never);
  const a = await first.acquire("openai/m", 2);
  const b = await second.acquire("openai/m", 2);
  const order: string[] = [];
  const c = second.acquire("openai/m", 2).then((release) => (order.push("c"), release));
  const d = first.acquire("openai/m", 2).then((release) => (order.push("d"), release));
  // Another model of the same provider has slots of its own.
  (await first.acquire("openai/other", 2))();
  expect(order).toEqual([]);
  a();
  (await c)();
  expect(order).toEqual(["c"]);
  b();
  (await d)();
  expect(order).toEqual(["c", "d"]);
  expect(host.stats().get("openai/m")).toMatchObject({ maxInFlight: 2, peak: 2, granted: 4, queued: 2 });
});

test("a worker that goes away gives back the slots it held", async () => {
  const [hostName, port] = host.address.split(":");
  // A worker in a process of its own: it takes both slots of a key, says so, and exits without releasing them.
  const worker = spawn(process.execPath, [
    "-e",
    `const s = require("node:net").connect(${port}, "${hostName}");
     s.write('{"a":1,"m":2,"k":"anthropic/gone"}\\n{"a":2,"m":2,"k":"anthropic/gone"}\\n');
     let got = ""; s.on("data", (d) => { got += d; if (got.split("\\n").length > 2) { console.log("held"); process.exit(0); } });`,
  ]);
  await new Promise<void>((resolve) => worker.stdout.on("data", () => resolve()));
  const client = limiterClient(host.address, never);
  (await client.acquire("anthropic/gone", 2))();
  expect(host.stats().get("anthropic/gone")?.peak).toBe(2);
});

test("with no host to reach, the limit holds in the process", async () => {
  const local = new KeyedSlots();
  const client = limiterClient("127.0.0.1:1", (key, max) => local.acquire(key, max));
  const release = await client.acquire("google/m", 1);
  let second = false;
  const next = client.acquire("google/m", 1).then((again) => ((second = true), again));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(second).toBe(false);
  release();
  (await next)();
  expect(local.stats().get("google/m")).toMatchObject({ peak: 1, granted: 2, queued: 1 });
});

test("a request aborted while it waits for a slot rejects, and the slot it would have had goes back", async () => {
  const limit = { key: "openai/abort", maxInFlight: 1, retries: 0, maxWaitMs: 0 };
  const first = await acquireProviderSlot(limit);
  const controller = new AbortController();
  const second = acquireProviderSlot(limit, controller.signal);
  controller.abort(new Error("the client gave up"));
  await expect(second).rejects.toThrow("the client gave up");
  first?.release();
  const third = await acquireProviderSlot(limit);
  expect(third).toBeDefined();
  third?.release();
});
