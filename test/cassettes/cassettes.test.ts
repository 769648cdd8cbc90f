import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { createServer, type Server } from "node:http";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, StubConfigError, type CassetteOptions } from "tooltrace";
import { startLlmServer, type LlmServer } from "tooltrace/msw";
import { defaultCassettePath } from "../../src/cassettes/cassette.js";
import { packageFile } from "../fixtures/versions.js";

const API_KEY = "sk-live-4f9c2a7e1b8d3c6f";

/** A fake issue tracker on 127.0.0.1, counting what reaches it. */
async function fakeUpstream() {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    const id = new URL(request.url ?? "/", "http://x").searchParams.get("id");
    response.writeHead(200, { "content-type": "application/json", "set-cookie": `session=${API_KEY}` });
    response.end(JSON.stringify({ id, title: `Issue ${id}`, token: API_KEY }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let llm: LlmServer;
beforeAll(() => {
  llm = startLlmServer();
});
afterAll(() => llm.close());

/** An agent whose tools call the issue tracker over HTTP, with a real-looking API key. */
function issueAgent(base: { url: string }, order: "lookups first" | "notify first" = "lookups first") {
  const tools = {
    lookup: async ({ id }: { id: string }) => {
      const response = await fetch(`${base.url}/issues?id=${id}&api_key=${API_KEY}`, { headers: { authorization: `Bearer ${API_KEY}` } });
      return (await response.json()) as unknown;
    },
    notify: async (_input: { to: string }) => {
      throw new Error("SMTP down");
    },
  };
  const agent = async () => {
    const results: unknown[] = [];
    const notify = () => tools.notify({ to: "ada" }).catch((error: Error) => `notify failed: ${error.message}`);
    if (order === "notify first") results.push(await notify());
    results.push(await tools.lookup({ id: "7" }), await tools.lookup({ id: "8" }));
    if (order === "lookups first") results.push(await notify());
    return JSON.stringify(results);
  };
  return { tools, agent };
}

function cassettePath(): string {
  return join(mkdtempSync(join(tmpdir(), "tooltrace-cassette-")), "issues.json");
}

async function runWith(cassette: CassetteOptions, base: { url: string }, order?: "lookups first" | "notify first") {
  const { tools, agent } = issueAgent(base, order);
  const session = createSession({ tools, agent, cassette, strict: cassette.mode === "replay", unusedRules: "ignore" });
  const turn = await session.send("What are issues 7 and 8?");
  const report = session.close();
  return { turn, report, session };
}

describe("cassettes: record against a local upstream, replay with it stopped", () => {
  test("recorded results replay hermetically: nothing goes out, errors replay as errors, tools may reorder", async () => {
    const upstream = await fakeUpstream();
    const path = cassettePath();
    const recorded = await runWith({ mode: "record", path }, upstream);
    expect(upstream.seen).toHaveLength(2);
    expect(recorded.turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["real", "real", "real"]);
    await upstream.close();

    const file = JSON.parse(readFileSync(path, "utf8")) as {
      version: number;
      tools: Record<string, unknown[]>;
      http: Record<string, unknown[]>;
    };
    expect(file.version).toBe(1);
    expect(Object.keys(file.tools)).toEqual(["lookup", "notify"]);
    expect(file.tools.notify).toEqual([{ input: { to: "ada" }, error: { name: "Error", message: "SMTP down" } }]);
    expect(Object.keys(file.http)).toEqual([
      `GET ${upstream.url}/issues?id=7&api_key=%5Bredacted%5D`,
      `GET ${upstream.url}/issues?id=8&api_key=%5Bredacted%5D`,
    ]);
    // The key went out in a header, a query parameter, a cookie and a JSON field: it is nowhere in the file.
    expect(readFileSync(path, "utf8")).not.toContain(API_KEY);

    const replayed = await runWith({ mode: "replay", path }, upstream, "notify first");
    expect(upstream.seen).toHaveLength(2);
    expect(replayed.report.violations).toEqual([]);
    expect(JSON.parse(replayed.turn.text)).toEqual([
      "notify failed: SMTP down",
      { id: "7", title: "Issue 7", token: "[redacted]" },
      { id: "8", title: "Issue 8", token: "[redacted]" },
    ]);
    expect(replayed.turn.toolCalls.map((call) => [call.tool, call.status, call.answeredBy])).toEqual([
      ["notify", "failed", { kind: "cassette", entry: 0 }],
      ["lookup", "completed", { kind: "cassette", entry: 0 }],
      ["lookup", "completed", { kind: "cassette", entry: 1 }],
    ]);
  });

  test("a call the cassette does not hold is refused naming it, and fails the test; one it holds with other input replays, reported as stale", async () => {
    const upstream = await fakeUpstream();
    const path = cassettePath();
    await runWith({ mode: "record", path }, upstream);
    await upstream.close();
    const { tools } = issueAgent(upstream);
    const replay = (stale: CassetteOptions["stale"]) =>
      createSession({
        tools,
        strict: true,
        cassette: { mode: "replay", path, stale },
        unusedRules: "ignore",
        agent: async () => {
          await tools.lookup({ id: "7" });
          const other = (await tools.lookup({ id: "9" })) as { id: string };
          const extra = await tools.lookup({ id: "8" }).catch((error: Error) => error.message);
          return JSON.stringify([other.id, extra]);
        },
      });
    const session = replay("error");
    const turn = await session.send("go");
    // The call with another input answers as recorded (the entry is stale, not missing); the one past the end is refused.
    expect(JSON.parse(turn.text)[0]).toBe("8");
    let printed = "";
    try {
      expect(turn).toSucceed();
    } catch (error) {
      printed = (error as Error).message;
    }
    expect(printed).toContain("[cassette, recorded call 1]");
    expect(printed).toContain('2. lookup({"id":"9"}) → completed {"id":"8"');
    expect(printed).toContain('3. lookup({"id":"8"}) → rejected');
    expect(printed).not.toMatch(/entry \d/);
    const violations = session.takeViolations();
    expect(violations[0]).toContain("call 2 of lookup was recorded for another request than the code sends now");
    expect(violations[0]).toMatch(/- input\/id: "8"\n\s+\+ input\/id: "9"/);
    expect(violations[0]).toContain("Fix: record this cassette again:");
    expect(violations[1]).toContain(`holds no more calls of lookup`);
    expect(upstream.seen).toHaveLength(2);
    // With the default policy the stale entry is a warning, not a violation.
    const warned = replay(undefined);
    await warned.send("go");
    expect(warned.takeViolations()).toEqual([expect.stringContaining("holds no more calls of lookup")]);
  });

  test("auto records when the file is missing and replays when it exists; replay without a file, or an unknown version, is refused with the command", async () => {
    const upstream = await fakeUpstream();
    const path = cassettePath();
    await runWith({ mode: "auto", path }, upstream);
    expect(existsSync(path)).toBe(true);
    await runWith({ mode: "auto", path }, upstream);
    expect(upstream.seen).toHaveLength(2);
    await upstream.close();

    const { tools, agent } = issueAgent(upstream);
    const missing = join(mkdtempSync(join(tmpdir(), "tooltrace-cassette-")), "none.json");
    expect(() => createSession({ tools, agent, cassette: { mode: "replay", path: missing } })).toThrow(StubConfigError);
    expect(() => createSession({ tools, agent, cassette: { mode: "replay", path: missing } })).toThrow(
      /does not exist[\s\S]*TOOLTRACE_CASSETTE=record/,
    );
    writeFileSync(path, JSON.stringify({ version: 0, tools: {} }));
    expect(() => createSession({ tools, agent, cassette: { mode: "replay", path } })).toThrow(
      /has version 0; this tooltrace reads version 1[\s\S]*TOOLTRACE_CASSETTE=record/,
    );
  });

  test("stubs win over the cassette, and what a stub answered is never recorded", async () => {
    const upstream = await fakeUpstream();
    const path = cassettePath();
    const { tools, agent } = issueAgent(upstream);
    const session = createSession({
      tools,
      agent,
      cassette: { mode: "record", path },
      stubs: [{ id: "notify", tool: "notify", outcome: { response: "sent" } }],
    });
    await session.send("go");
    session.close();
    await upstream.close();
    const file = JSON.parse(readFileSync(path, "utf8")) as { tools: Record<string, unknown[]> };
    expect(Object.keys(file.tools)).toEqual(["lookup"]);
  });

  test("TOOLTRACE_CASSETTE chooses the mode for sessions that do not: record in watch mode, replay in CI", async () => {
    const upstream = await fakeUpstream();
    const path = cassettePath();
    const before = process.env.TOOLTRACE_CASSETTE;
    try {
      process.env.TOOLTRACE_CASSETTE = "record";
      await runWith({ path }, upstream);
      process.env.TOOLTRACE_CASSETTE = "replay";
      await upstream.close();
      const replayed = await runWith({ path }, upstream);
      expect(replayed.turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["cassette", "cassette", "cassette"]);
      expect(upstream.seen).toHaveLength(2);
      process.env.TOOLTRACE_CASSETTE = "sometimes";
      const { tools, agent } = issueAgent(upstream);
      expect(() => createSession({ tools, agent, cassette: { path } })).toThrow("TOOLTRACE_CASSETTE=sometimes is not a cassette mode");
    } finally {
      if (before === undefined) delete process.env.TOOLTRACE_CASSETTE;
      else process.env.TOOLTRACE_CASSETTE = before;
    }
  });

  test('the README\'s config (`mode: "auto"`) records again under TOOLTRACE_CASSETTE=record; an explicit replay says why it does not', async () => {
    const upstream = await fakeUpstream();
    const path = cassettePath();
    const before = process.env.TOOLTRACE_CASSETTE;
    try {
      await runWith({ path, mode: "auto" }, upstream);
      expect(upstream.seen).toHaveLength(2);
      // A file that exists, so `auto` alone would replay: the command line asks to record it again.
      const existing = cassettePath();
      copyFileSync(path, existing);
      process.env.TOOLTRACE_CASSETTE = "record";
      const again = await runWith({ path: existing, mode: "auto" }, upstream);
      expect(again.turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["real", "real", "real"]);
      expect(upstream.seen).toHaveLength(4);
      const warned: string[] = [];
      const warn = console.warn;
      console.warn = (line: string) => warned.push(line);
      try {
        const replayed = await runWith({ path, mode: "replay" }, upstream);
        expect(replayed.turn.toolCalls.map((call) => call.answeredBy?.kind)).toEqual(["cassette", "cassette", "cassette"]);
      } finally {
        console.warn = warn;
      }
      expect(warned).toEqual([expect.stringMatching(/TOOLTRACE_CASSETTE=record does not apply to session \d+ of test/)]);
      expect(warned[0]).toContain('its cassette mode is "replay"');
    } finally {
      if (before === undefined) delete process.env.TOOLTRACE_CASSETTE;
      else process.env.TOOLTRACE_CASSETTE = before;
      await upstream.close();
    }
  });

  test("by default a cassette lives beside its test file, one file per test and session", () => {
    expect(defaultCassettePath("/repo/test/support.eval.ts", "refunds > a delivered order", "session 1")).toBe(
      "/repo/test/__cassettes__/support.eval.ts/refunds-a-delivered-order.session-1.json",
    );
  });

  test("a writer killed while saving never leaves half a file: the cassette is the old one or the whole new one", async () => {
    const path = cassettePath();
    writeFileSync(path, JSON.stringify({ version: 1, tools: { old: [{ input: {}, output: "kept" }] }, http: {} }));
    // A child records a large cassette through the built package and saves it; it is killed while the save is under way.
    const script = `
      const { createSession } = await import("tooltrace");
      const output = "x".repeat(8000);
      const tools = { search: (input) => output };
      const session = createSession({ tools, cassette: { mode: "record", path: ${JSON.stringify(path)} }, agent: () => {
        for (let i = 0; i < 10000; i++) tools.search({ i });
        return "done";
      } });
      await session.send("go");
      process.stdout.write("saving\\n");
      session.close();
      process.stdout.write("saved\\n");`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    let killedWhileWriting = false;
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    // Kill it the moment its write is under way: as soon as a file beside the cassette appears.
    const watcher = setInterval(() => {
      if (readdirSync(dirname(path)).some((name) => name !== basename(path))) {
        killedWhileWriting = child.kill("SIGKILL");
        clearInterval(watcher);
      }
    }, 1);
    await new Promise<void>((resolve) => child.on("close", () => resolve()));
    clearInterval(watcher);
    expect(out).toContain("saving");
    const file = JSON.parse(readFileSync(path, "utf8")) as { tools: Record<string, unknown[]> };
    if (killedWhileWriting && !out.includes("saved")) expect(file.tools).toEqual({ old: [{ input: {}, output: "kept" }] });
    else expect(file.tools.search).toHaveLength(10000);
    // The next save clears what a killed writer left beside the cassette.
    const next = createSession({ tools: { t: async () => 1 }, agent: () => "", cassette: { mode: "record", path } });
    next.close();
    expect(readdirSync(dirname(path))).toEqual([basename(path)]);
    // A child process that records 10,000 calls: a second alone, more under load.
  }, 60_000);

  test("a request that failed on the network is recorded as that failure and replays as one", async () => {
    const closed = await fakeUpstream();
    await closed.close();
    const path = cassettePath();
    const tools = {
      ping: async () =>
        fetch(`${closed.url}/health`).then(
          (response) => response.status,
          (error: Error) => `down: ${error.message}`,
        ),
    };
    const agent = async () => String(await tools.ping());
    const recorder = createSession({ tools, agent, cassette: { mode: "record", path } });
    const recorded = await recorder.send("up?");
    recorder.close();
    expect(recorded.text).toMatch(/^down: /);
    const file = JSON.parse(readFileSync(path, "utf8")) as { http: Record<string, { networkError?: string }[]> };
    expect(file.http[`GET ${closed.url}/health`]).toEqual([
      { method: "GET", url: `${closed.url}/health`, networkError: expect.stringMatching(/fetch failed|ECONNREFUSED/) },
    ]);
    // An agent making the same request itself replays the HTTP entry: the same failure, and nothing goes out.
    const replayer = createSession({
      tools: {},
      agent: async () =>
        fetch(`${closed.url}/health`).then(
          () => "up",
          (error: Error) => `down: ${error.name}`,
        ),
      cassette: { mode: "replay", path },
      strict: true,
    });
    const replayed = await replayer.send("up?");
    expect(replayer.takeViolations()).toEqual([]);
    expect(replayed.text).toBe("down: TypeError");
    expect(replayed.httpCalls.map((call) => [call.status, call.answeredBy?.kind])).toEqual([["failed", "cassette"]]);
  });

  test("a body that is not text (an image) is recorded in base64 and replays byte for byte", async () => {
    // PNG magic, then bytes that are not UTF-8 and a run of text: none may be rewritten. (A known secret in the
    // bytes is redacted, and one of a well-known key format refuses the write: test/edges/secrets-in-outputs.)
    const image = Buffer.concat([Buffer.from("89504e470d0a1a0a00fffe80c3", "hex"), Buffer.from("IHDR tEXt Comment=[redacted?]")]);
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(image);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/logo.png`;
    const agent = async () => Buffer.from(await (await fetch(url)).arrayBuffer()).toString("hex");
    const path = cassettePath();
    const recorder = createSession({ tools: {}, agent, cassette: { mode: "record", path } });
    expect((await recorder.send("logo?")).text).toBe(image.toString("hex"));
    recorder.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const file = JSON.parse(readFileSync(path, "utf8")) as { http: Record<string, { body: string; bodyEncoding?: string }[]> };
    expect(file.http[`GET ${url}`]?.[0]).toMatchObject({ bodyEncoding: "base64", body: image.toString("base64") });
    const replayer = createSession({ tools: {}, agent, cassette: { mode: "replay", path }, strict: true });
    const replayed = await replayer.send("logo?");
    expect(replayer.takeViolations()).toEqual([]);
    expect(replayed.text).toBe(image.toString("hex"));
  });

  test("a strict session never records because auto found no file: it says how to record on purpose", () => {
    const path = cassettePath();
    const tools = { charge_card: async () => ({ charged: true }) };
    expect(() => createSession({ tools, agent: () => "", strict: true, cassette: { mode: "auto", path } })).toThrow(
      /is strict, and its cassette mode is auto with no file at[\s\S]*TOOLTRACE_CASSETTE=record/,
    );
    // Recording on purpose is allowed, strict or not.
    expect(createSession({ tools, agent: () => "", strict: true, cassette: { mode: "record", path } }).strict).toBe(true);
  });

  let attempts = 0;
  const retriedPath = cassettePath();
  test("a retried test records again into its own cassette", { retry: 1 }, async () => {
    attempts += 1;
    const session = createSession({ tools: { t: async () => attempts }, agent: () => "", cassette: { mode: "record", path: retriedPath } });
    await session.send("go");
    if (attempts === 1) throw new Error("a flaky first attempt");
    expect(attempts).toBe(2);
  });

  /** The lock files of a run left in the temporary folder. */
  function locksOf(run: number): string[] {
    const folder = join(tmpdir(), "tooltrace-cassette-locks");
    if (!existsSync(folder)) return [];
    // Other files of this suite claim and release beside it: a lock gone between the listing and the read is not left.
    const text = (name: string) => (existsSync(join(folder, name)) ? readFileSync(join(folder, name), "utf8") : "");
    return readdirSync(folder).filter((name) => text(name).includes(`"run":${run}`));
  }

  test("two workers recording at once each write their own whole file; two tests of one name in a file are refused", async () => {
    const project = join(import.meta.dirname, "../fixtures/cassette-project");
    const cassettes = join(project, "__cassettes__");
    rmSync(cassettes, { recursive: true, force: true });
    const out = join(mkdtempSync(join(tmpdir(), "tooltrace-cassette-project-")), "report.json");
    const shared = join(dirname(out), "shared.json");
    const running = promisify(execFile)(
      process.execPath,
      [
        packageFile("vitest", "vitest.mjs"),
        "run",
        "--config",
        join(project, "vitest.config.ts"),
        "--reporter=json",
        `--outputFile.json=${out}`,
      ],
      {
        env: { ...process.env, CI: "1", TOOLTRACE_CASSETTE: "record", SHARED_CASSETTE: shared },
      },
    );
    const run = running.child.pid;
    await running.catch(() => undefined);
    // The run's claims on its cassettes (which refused the second writer below) are gone with it.
    expect(run).toBeTypeOf("number");
    expect(locksOf(run as number)).toEqual([]);
    const report = JSON.parse(readFileSync(out, "utf8")) as {
      testResults: { name: string; assertionResults: { status: string; failureMessages: string[] }[] }[];
    };
    const byFile = new Map(report.testResults.map((file) => [basename(file.name), file.assertionResults]));
    expect(byFile.get("north.agent-spec.ts")?.map((test) => test.status)).toEqual(["passed"]);
    expect(byFile.get("south.agent-spec.ts")?.map((test) => test.status)).toEqual(["passed"]);
    const pids = new Set<number>();
    for (const side of ["north", "south"]) {
      const file = JSON.parse(readFileSync(join(cassettes, `${side}.agent-spec.ts`, "records-the-forecast.weather.json"), "utf8")) as {
        tools: { forecast: { output: { side: string; pid: number } }[] };
      };
      expect(file.tools.forecast.map((call) => call.output.side)).toEqual([side, side, side, side, side]);
      pids.add(file.tools.forecast[0]!.output.pid);
    }
    // They did run in two processes.
    expect(pids.size).toBe(2);
    const twins = byFile.get("twins.agent-spec.ts");
    expect(twins?.map((test) => test.status)).toEqual(["passed", "failed"]);
    expect(twins?.[1]?.failureMessages.join("\n")).toContain('weather of test "same name" would record into');
    expect(twins?.[1]?.failureMessages.join("\n")).toContain('which weather of test "same name" records into in this run');
    // Two files recording into one explicit path, in two workers: one is refused, naming both files; the file keeps the other's.
    const sides = ["east", "west"].map((side) => ({ side, results: byFile.get(`shared-${side}.agent-spec.ts`) ?? [] }));
    const refused = sides.filter(({ results }) => results[0]?.status === "failed");
    expect(refused).toHaveLength(1);
    const kept = sides.find(({ results }) => results[0]?.status === "passed")?.side;
    const message = refused[0]?.results[0]?.failureMessages.join("\n") ?? "";
    expect(message).toMatch(
      /shared-(east|west)\.agent-spec\.ts\) would record into .*shared\.json, which session 1 of test "records into the shared path" \(.*shared-(east|west)\.agent-spec\.ts\) records into in this run/,
    );
    const sharedFile = JSON.parse(readFileSync(shared, "utf8")) as { tools: { forecast: { output: { side: string } }[] } };
    expect(sharedFile.tools.forecast.map((call) => call.output.side)).toEqual([kept]);
    rmSync(cassettes, { recursive: true, force: true });
  }, 60_000);

  test("parallel calls of one tool replay in the order they were made, whatever order they finished in; a mode typo is refused", async () => {
    const path = cassettePath();
    const tools = {
      lookup: async ({ id, ms }: { id: number; ms: number }) => (await new Promise((resolve) => setTimeout(resolve, ms)), { id }),
    };
    const agent = async () => JSON.stringify(await Promise.all([tools.lookup({ id: 1, ms: 40 }), tools.lookup({ id: 2, ms: 1 })]));
    const recording = createSession({ tools, agent, cassette: { mode: "record", path } });
    await recording.send("go");
    recording.close();
    const replay = createSession({ tools, agent, strict: true, cassette: { mode: "replay", path } });
    const turn = await replay.send("go");
    expect(replay.takeViolations()).toEqual([]);
    expect(turn.text).toBe('[{"id":1},{"id":2}]');
    expect(() => createSession({ tools, agent, cassette: { mode: "Replay" as "replay", path } })).toThrow(
      'cassette mode "Replay" is not one of record, replay, auto, off',
    );
  });
});
