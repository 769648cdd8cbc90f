import { AsyncLocalStorage } from "node:async_hooks";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { promises as dns } from "node:dns";
import { connect as connectH2 } from "node:http2";
import { connect as connectTcp } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import OpenAI from "openai";
import { Agent, Client, Pool } from "undici";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "tooltrace";
import { majorOf } from "../fixtures/versions.js";
import { type LlmServer, startLlmServer } from "tooltrace/msw";

// A counting upstream in a process of its own: what reaches it prints a line.
let upstream: ChildProcess;
let ports: { http: number; raw: number; h2: number; udp: number; dns: number };
const events: string[] = [];
const base = () => `http://127.0.0.1:${ports.http}`;

// Made before tooltrace's MSW server starts, with a dispatcher of its own: the global `fetch` guard never sees it.
let early: OpenAI;
// A queue of the agent's, drained by a module-level interval: its work runs outside every turn.
const queue: { url: string; done: (result: Promise<string>) => void }[] = [];
const drain = setInterval(() => {
  for (const job of queue.splice(0)) job.done(fetch(job.url).then((response) => response.text()));
}, 10);
// An async context stored at module level: work resumed through it runs outside every turn too.
const moduleContext = AsyncLocalStorage.snapshot();
let warm: Pool;
let llm: LlmServer;

beforeAll(async () => {
  upstream = spawn(process.execPath, [join(import.meta.dirname, "../fixtures/counting-upstream.mjs")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  ports = await new Promise((resolve) => {
    let buffered = "";
    upstream.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("PORTS ")) resolve(JSON.parse(line.slice(6)));
        else events.push(line);
      }
    });
  });
  early = new OpenAI({ apiKey: "sk-test", baseURL: `${base()}/v1`, maxRetries: 0, fetchOptions: { dispatcher: new Agent() } as never });
  // A keep-alive pool connected before any strict session exists.
  warm = new Pool(base());
  await (await warm.request({ path: "/warm-up", method: "GET" })).body.text();
  // The upstream's line for it comes over a pipe: counted before the tests start, never in one.
  while (!events.includes("HTTP GET /warm-up")) await new Promise((resolve) => setTimeout(resolve, 5));
  llm = startLlmServer();
}, 30_000);
afterAll(async () => {
  clearInterval(drain);
  llm.close();
  await warm.close();
  upstream.stdin?.end();
});

const run = promisify(execFile);
/** An HTTP/2 stream over a connection of its own. */
const h2Probe = () =>
  new Promise((resolve, reject) => {
    const session = connectH2(`http://127.0.0.1:${ports.h2}`);
    session.on("error", reject);
    const stream = session.request({ ":path": "/h2" });
    stream.on("error", reject);
    stream.on("response", () => {
      stream.resume();
      session.close();
      resolve("h2");
    });
    stream.end();
  });

/** Each way out, as an agent's code might take it; each resolves once the upstream answered. */
const probes: Record<string, () => Promise<unknown>> = {
  "undici Pool": async () => (await new Pool(base()).request({ path: "/undici-pool", method: "GET" })).body.text(),
  "undici Client": async () => (await new Client(base()).request({ path: "/undici-client", method: "GET" })).body.text(),
  // msw 3's socket interceptor holds an HTTP/2 connection with prior knowledge pending forever, without
  // tooltrace too (a plain setupServer().listen() is enough): that probe runs on msw 2.
  ...(majorOf("msw") >= 3 ? {} : { "http2.connect": h2Probe }),
  "net.connect": () =>
    new Promise((resolve, reject) => {
      const socket = connectTcp(ports.raw, "127.0.0.1", () => socket.write("GET /raw HTTP/1.1\r\n\r\n"));
      socket.on("data", (data) => {
        socket.destroy();
        resolve(String(data));
      });
      socket.on("error", reject);
    }),
  dgram: () =>
    new Promise((resolve, reject) => {
      const socket = createSocket("udp4");
      socket.on("error", reject);
      socket.send("leak", ports.udp, "127.0.0.1", (error) => {
        socket.close();
        if (error) reject(error);
        else setTimeout(() => resolve("sent"), 50);
      });
    }),
  "a DNS query": async () => {
    const resolver = new dns.Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([`127.0.0.1:${ports.dns}`]);
    // The fake server answers NXDOMAIN: reaching it is the point.
    return resolver.resolve4("leak.test").catch((error: { code?: string }) => {
      if (error.code === "ENOTFOUND") return "answered";
      throw error;
    });
  },
  "fetch in a worker thread": () =>
    new Promise((resolve, reject) => {
      const worker = new Worker(`fetch(${JSON.stringify(`${base()}/worker`)}).then((r) => r.text())`, { eval: true });
      worker.on("error", reject);
      worker.on("exit", resolve);
    }),
  "a child node process": () => run(process.execPath, ["-e", `fetch(${JSON.stringify(`${base()}/child`)}).then((r) => r.text())`]),
  curl: () => run("curl", ["-s", `${base()}/curl`]),
  "a queue drained by a module-level setInterval": () =>
    new Promise((resolve, reject) => queue.push({ url: `${base()}/queue`, done: (result) => result.then(resolve, reject) })),
  "AsyncLocalStorage.snapshot()": () => moduleContext(() => fetch(`${base()}/snapshot`).then((response) => response.text())),
  "an OpenAI client with its own undici Agent, made before the server": () => early.models.list(),
  "a keep-alive pool opened before the turn": async () => (await warm.request({ path: "/keep-alive", method: "GET" })).body.text(),
};

/** A refusal, however deep the client wrapped it (undici's "fetch failed", the OpenAI SDK's "Connection error."). */
function refusedBy(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) if (current.message.includes("strict mode")) return true;
  return false;
}

async function tryAll(): Promise<Record<string, string>> {
  const outcomes: Record<string, string> = {};
  for (const [name, probe] of Object.entries(probes)) {
    // A refused process start throws at once (spawn, execFile, new Worker): that is a refusal too.
    outcomes[name] = await Promise.resolve()
      .then(probe)
      .then(
        () => "reached",
        (error: Error) => (refusedBy(error) ? "refused" : `failed: ${error?.message}`),
      );
  }
  return outcomes;
}

const allRefused = Object.fromEntries(Object.keys(probes).map((name) => [name, "refused"]));
const allReached = Object.fromEntries(Object.keys(probes).map((name) => [name, "reached"]));

describe("strict mode at the socket: nothing leaves the process, whatever the client", () => {
  test("in a strict turn every channel is refused, reported, and the upstream sees nothing", async () => {
    const before = events.length;
    let outcomes: Record<string, string> = {};
    const session = createSession({ tools: {}, strict: true, agent: async () => ((outcomes = await tryAll()), "done") });
    const turn = await session.send("go");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outcomes).toEqual(allRefused);
    expect(events.slice(before)).toEqual([]);
    expect(turn).not.toSucceed();
    const violations = session.takeViolations();
    for (const what of [
      /a TCP connection to 127\.0\.0\.1:\d+ was opened during a turn of session \d+, past every catcher/,
      /a UDP datagram to 127\.0\.0\.1:\d+ was sent/,
      /a DNS query for "leak\.test" was made/,
      /a worker thread was started/,
      /the child process `node` was started/,
      /the child process `curl` was started/,
      /outside any turn while session \d+ was open \(a timer, an interval, a queue or a stored async context/,
    ])
      expect(
        violations.some((violation) => what.test(violation)),
        String(what),
      ).toBe(true);
    session.close();
  }, 30_000);

  test("the same channels arrive from a session that is not strict, so the counter counts", async () => {
    const before = events.length;
    let outcomes: Record<string, string> = {};
    const session = createSession({ tools: {}, agent: async () => ((outcomes = await tryAll()), "done") });
    await session.send("go");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outcomes).toEqual(allReached);
    const seen = events.slice(before);
    for (const line of [
      "HTTP GET /undici-pool",
      "HTTP GET /undici-client",
      ...(majorOf("msw") >= 3 ? [] : ["H2 /h2"]),
      "RAW data",
      "UDP datagram",
      "DNS query",
      "HTTP GET /worker",
      "HTTP GET /child",
      "HTTP GET /curl",
      "HTTP GET /queue",
      "HTTP GET /snapshot",
      "HTTP GET /v1/models",
      "HTTP GET /keep-alive",
    ])
      expect(seen).toContain(line);
    session.close();
  }, 30_000);

  test("allowHosts and allowProcesses let the named ones through a strict session, and nothing else", async () => {
    const before = events.length;
    let outcomes: Record<string, string> = {};
    const session = createSession({
      tools: {},
      strict: true,
      allowHosts: [`127.0.0.1:${ports.raw}`],
      allowProcesses: ["curl"],
      agent: async () => {
        outcomes = {
          raw:
            (await probes["net.connect"]?.().then(
              () => "reached",
              () => "refused",
            )) ?? "",
          curl: "",
          pool: "",
        };
        outcomes.curl =
          (await probes.curl?.().then(
            () => "reached",
            () => "refused",
          )) ?? "";
        outcomes.pool =
          (await probes["undici Pool"]?.().then(
            () => "reached",
            () => "refused",
          )) ?? "";
        return "done";
      },
    });
    await session.send("go");
    expect(outcomes).toEqual({ raw: "reached", curl: "reached", pool: "refused" });
    expect(events.slice(before)).toEqual(expect.arrayContaining(["RAW data", "HTTP GET /curl"]));
    expect(events.slice(before)).not.toContain("HTTP GET /undici-pool");
    expect(session.takeViolations()).toHaveLength(1);
    session.close();
    expect(() => createSession({ tools: {}, strict: true, allowHosts: ["https://api.example.com/v1"], agent: () => "" })).toThrow(
      'createSession({ allowHosts })[0] is "https://api.example.com/v1", not a host: write "name", "name:port", "*.domain" or "[ipv6]:port" (no scheme, no path).',
    );
  }, 30_000);
});
