// Bounds the red team found missing: what a deployed server holds after many requests, the size of a body
// `mcp serve --http` reads, and a `slow` fault's delay past what a Node timer can hold.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import { createSession, StubConfigError } from "tooltrace";
import { secret, TOKEN_HEADER, tok, tooltraceServer, turnGrant } from "../server/attacks/helpers.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const bin = join(import.meta.dirname, "../../dist/bin.js");

/** Collects garbage until finalizers had their turn. */
async function collect(): Promise<number> {
  for (let round = 0; round < 5; round++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

describe("a deployed server keeps a bounded number of requests", () => {
  test("2,000 stubbed requests whose calls are never fetched: the first 1,000 are freed, and the second 1,000 add little heap", async () => {
    // Problem: every request stayed held for 10 s after its response (Gate's `live` set), however many arrived: +16.5 MB, then +14.6 MB.
    const tools = { lookup: async (input: { id: string; page: string }) => ({ id: input.id }) };
    const logged: string[] = [];
    const traced = tooltraceServer({ tools, secret, log: (line) => logged.push(line) });
    const freed = new Set<number>();
    const registry = new FinalizationRegistry<number>((i) => freed.add(i));
    // A fetch-style route called in process: no socket at all. Each request calls its tool with an input of its own (4 KB).
    const route = traced.fetch(async (incoming: Request) => {
      const i = Number(new URL(incoming.url).searchParams.get("i"));
      const input = { id: `order-${i}`, page: `${i}`.padEnd(4000, ".") };
      registry.register(input, i);
      return Response.json(await tools.lookup(input));
    });
    try {
      const heap = [await collect()];
      for (let i = 0; i < 2000; i++) {
        // One test's session (one sid), as a suite's runs would send them; the calls are never fetched.
        const response = await route(new Request(`http://127.0.0.1/chat?i=${i}`, { headers: { [TOKEN_HEADER]: tok(turnGrant()) } }));
        expect(await response.json()).toEqual({ source: "stub" });
        if (i === 999 || i === 1999) heap.push(await collect());
      }
      const [start, first, second] = heap as [number, number, number];
      // The docs keep at most 1,000 requests' calls: by the 2,000th, the first 1,000 are gone.
      expect([...freed].filter((i) => i < 1000).length).toBeGreaterThanOrEqual(900);
      expect(second - first).toBeLessThan((first - start) / 3);
      // What was let go before its window ended is said, at most once a second, with how many.
      expect(logged.filter((line) => line.includes("lingering work let go")).length).toBeGreaterThanOrEqual(1);
    } finally {
      traced.close();
    }
  }, 60_000);
});

describe("mcp serve --http bounds a request's body", () => {
  test("a 50 MB body, streamed, is refused (413 or a JSON-RPC error), not read whole and answered", async () => {
    // Problem: any body was read into memory whole and parsed (a 200 MB one took 1.5 GB); this one was answered 200.
    const folder = mkdtempSync(join(tmpdir(), "tooltrace-mcp-body-"));
    const file = join(folder, "tools.json");
    writeFileSync(file, JSON.stringify({ tools: [{ name: "get_weather" }], stubs: [] }));
    const child = spawn(process.execPath, [bin, "mcp", "serve", file, "--http"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
        child.once("exit", (code) => reject(new Error(`mcp serve exited with ${code}`)));
      });
      // A valid JSON-RPC ping, padded to 50 MB in its params, sent in 64 KB chunks without a content-length.
      const size = 50 * 1024 * 1024;
      const head = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"');
      const tail = Buffer.from('"}}}');
      const chunk = Buffer.alloc(64 * 1024, "x");
      let sent = head.length;
      const body = Readable.from(
        (function* () {
          yield head;
          for (; sent < size; sent += chunk.length) yield chunk;
          yield tail;
        })(),
      );
      const answer = await new Promise<{ status: number; text: string } | { closedAt: number; error: string }>((resolve) => {
        const post = request(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        });
        post.on("response", (response) => {
          let text = "";
          response.on("data", (data: Buffer) => (text += data.toString("utf8")));
          response.on("close", () => {
            resolve({ status: response.statusCode ?? 0, text });
            post.destroy();
          });
        });
        // A server may also close the connection on a body too large: refused, if before the body was all sent.
        post.on("error", (error) => resolve({ closedAt: sent, error: error.message }));
        body.pipe(post);
      });
      if ("closedAt" in answer) expect(answer.closedAt).toBeLessThan(size);
      else expect(answer.status === 413 ? "413" : `${answer.status} ${answer.text.slice(0, 160)}`).toMatch(/^413$|"error"\s*:\s*\{/);
    } finally {
      child.kill();
    }
  }, 60_000);
});

describe("a slow fault's delay is bounded at setup", () => {
  // Node's timers hold at most 2^31 - 1 ms: a longer delay fires after 1 ms, with a TimeoutOverflowWarning.
  const tooLong = 2 ** 31;

  test("firstTokenMs of 2^31 ms in the session's faults is refused with its pointer", () => {
    // Problem: accepted, and the slow answer came after 1 ms.
    const create = () => createSession({ agent: () => "", tools: {}, faults: [{ fault: "slow", firstTokenMs: tooLong }] });
    expect(create).toThrow(StubConfigError);
    expect(create).toThrow(/faults\/0\/firstTokenMs/);
  });

  test("firstTokenMs of 2^31 ms on a stub rule is refused with the rule and its pointer", () => {
    // Problem: accepted, and the rule's slow outcome came after 1 ms.
    const tools = { lookup: async () => "real" };
    const stubs = [{ id: "slow", tool: "lookup", outcome: { response: 1 }, faults: [{ fault: "slow" as const, firstTokenMs: tooLong }] }];
    let error: unknown;
    try {
      createSession({ agent: () => "", tools, stubs, unusedRules: "ignore" });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(StubConfigError);
    expect(error).toMatchObject({ ruleId: "slow", pointer: "/faults/0/firstTokenMs" });
  });
});
