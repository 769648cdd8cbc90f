// Hono's Node server puts a `Response` class of its own in the global when it serves, and MSW wraps whatever
// class is there in a proxy. After both, a response Node's `fetch` made is not `instanceof Response`: MSW took
// tooltrace's strict refusal for a response of status 0 (the agent saw it "go out"), the trace lost an
// exchange's status, and a cassette kept no answer for it. The upstream counts in a process of its own.
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { type LlmServer, startLlmServer } from "tooltrace/msw";
import { type CountingUpstream, startCountingUpstream } from "../fixtures/counting-process.js";

let upstream: CountingUpstream;
let app: Server;
let llm: LlmServer;
const folder = mkdtempSync(join(tmpdir(), "tooltrace-hono-globals-"));

beforeAll(async () => {
  upstream = await startCountingUpstream();
  const hono = new Hono().get("/", (c) => c.text("deployed agent"));
  app = createAdaptorServer({ fetch: hono.fetch }) as Server;
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  llm = startLlmServer();
});
afterAll(async () => {
  llm.close();
  upstream.stop();
  await new Promise((resolve) => app.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const fetched = (url: string) =>
  fetch(url).then(
    async (response) => `${response.status} ${await response.text()}`,
    (error: Error) => `refused: ${error.message}`,
  );

/** Waits until the upstream has printed `line`, then returns every HTTP request it received. */
async function requestsUntil(line: string): Promise<string[]> {
  while (!upstream.events.includes(line)) await new Promise((resolve) => setTimeout(resolve, 10));
  return upstream.events.filter((event) => event.startsWith("HTTP "));
}

test("strict, beside a Hono app on its Node server: a refused request fails in the agent as a network error", async () => {
  // Hono's class extends the one it found (Node's own extends nothing).
  expect(Object.getPrototypeOf(globalThis.Response)).not.toBe(Function.prototype);
  const session = createSession({ tools: {}, strict: true, agent: () => fetched(`${upstream.url}/strict`) });
  const turn = await session.send("go");
  expect(turn.text).toMatch(/^refused: /);
  expect(turn.httpCalls.map((call) => [call.status, call.answeredBy?.kind])).toEqual([["rejected", "strict"]]);
  expect(session.takeViolations()).toEqual([expect.stringContaining(`GET ${upstream.url}/strict would have gone out`)]);
  session.close();
  await fetch(`${upstream.url}/after-strict`);
  expect(await requestsUntil("HTTP GET /after-strict")).not.toContain("HTTP GET /strict");
});

test("not strict: the exchange goes out, the trace has its status, and a cassette replays its answer", async () => {
  const path = join(folder, "hono.json");
  const agent = () => fetched(`${upstream.url}/recorded`);
  const recorder = createSession({ tools: {}, agent, cassette: { mode: "record", path } });
  const turn = await recorder.send("go");
  recorder.close();
  expect(turn.text).toBe('200 {"ok":true}');
  expect(turn.httpCalls[0]).toMatchObject({ status: "completed", statusCode: 200, answeredBy: { kind: "real" } });
  const replayer = createSession({ tools: {}, agent, cassette: { mode: "replay", path }, strict: true });
  const replayed = await replayer.send("go");
  expect(replayer.takeViolations()).toEqual([]);
  expect(replayed.text).toBe('200 {"ok":true}');
  replayer.close();
  await fetch(`${upstream.url}/after-replay`);
  expect((await requestsUntil("HTTP GET /after-replay")).filter((line) => line === "HTTP GET /recorded")).toHaveLength(1);
});
