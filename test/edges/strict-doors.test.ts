import { createRequire } from "node:module";
import { createServer, connect as connectNet, type Server } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, mcpTools, StubConfigError } from "tooltrace";
import { type CountingUpstream, startCountingUpstream } from "../fixtures/counting-process.js";

// The attacks that got past strict mode, each against a counting upstream in a process of its own: what
// reaches it printed a line, so an empty list of lines is what nothing escaped means.
const require = createRequire(import.meta.url);
const takenAtLoad = require("../fixtures/taken-at-load.cjs") as {
  runNode(script: string): string;
  shell(command: string): Promise<string>;
  startWorker(script: string): unknown;
  spawnSyncBinding(script: string): unknown;
};

const folder = mkdtempSync(join(tmpdir(), "tooltrace-doors-"));
const socketPath = join(folder, "service.sock");
let upstream: CountingUpstream;
let elsewhere: CountingUpstream;

beforeAll(async () => {
  [upstream, elsewhere] = await Promise.all([startCountingUpstream("127.0.0.1", socketPath), startCountingUpstream("127.0.0.2")]);
}, 30_000);
afterAll(() => {
  upstream.stop();
  elsewhere.stop();
  rmSync(folder, { recursive: true, force: true });
});

const since = (from: number, of = upstream) => of.events.slice(from).filter((line) => !line.startsWith("TCP"));
const fetchUpstream = () => `fetch(${JSON.stringify(`${upstream.url}/escaped`)}).then((r) => r.text())`;
const settle = <T>(work: () => T | Promise<T>) =>
  Promise.resolve()
    .then(work)
    .then(
      () => "ran",
      (error: Error) => `refused: ${error.message.split("\n")[0]}`,
    );

/** An HTTP request written by hand on a Unix socket, as a client of a local service does. */
const overUnixSocket = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connectNet(path, () => socket.write("GET /over-the-socket HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"));
    let text = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve(text.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });

describe("every door of strict mode", () => {
  test("a Unix-domain socket is refused like a TCP connection, unless allowSockets names it; the hermetic run leaves it open", async () => {
    const from = upstream.events.length;
    const strict = createSession({ tools: {}, strict: true, agent: () => settle(() => overUnixSocket(socketPath)) });
    expect((await strict.send("go")).text).toBe(
      `refused: [tooltrace] strict mode: a connection to the Unix socket ${socketPath} was opened during a turn of session 1, past every catcher of tooltrace's, so it was refused. Fix: stub the tool that uses it, or allow it: createSession({ allowSockets: [${JSON.stringify(socketPath)}] }).`.replace(
        "session 1",
        strict.name,
      ),
    );
    expect(strict.takeViolations()).toHaveLength(1);
    expect(since(from)).toEqual([]);
    strict.close();

    const allowed = createSession({ tools: {}, strict: true, allowSockets: [`${folder}/`], agent: () => overUnixSocket(socketPath) });
    expect((await allowed.send("go")).text).toBe("HTTP/1.1 200 OK");
    allowed.close();
    const plain = createSession({ tools: {}, agent: () => overUnixSocket(socketPath) });
    expect((await plain.send("go")).text).toBe("HTTP/1.1 200 OK");
    // The upstream's lines come over a pipe: wait for the second.
    for (let waited = 0; since(from).length < 2 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(since(from)).toEqual(["UNIX GET /over-the-socket", "UNIX GET /over-the-socket"]);
    expect(() => createSession({ tools: {}, strict: true, allowSockets: "/tmp" as never, agent: () => "" })).toThrow(
      "createSession({ allowSockets })",
    );
  });

  test("a socket this process listens on stays allowed: the test's own fake service", async () => {
    const own = join(folder, "own.sock");
    const server: Server = createServer((socket) => socket.end("HTTP/1.1 204 No Content\r\n\r\n"));
    await new Promise<void>((resolve) => server.listen(own, resolve));
    const session = createSession({ tools: {}, strict: true, agent: () => overUnixSocket(own) });
    expect((await session.send("go")).text).toBe("HTTP/1.1 204 No Content");
    session.close();
    server.close();
  });

  test("process functions a module took when it loaded are refused, and so is Node's spawn_sync binding", async () => {
    const from = upstream.events.length;
    const session = createSession({
      tools: {},
      strict: true,
      agent: async () =>
        [
          await settle(() => takenAtLoad.runNode(fetchUpstream())),
          await settle(() => takenAtLoad.spawnSyncBinding(fetchUpstream())),
          await settle(() => takenAtLoad.startWorker(fetchUpstream())),
        ].join("\n"),
    });
    const text = (await session.send("go")).text;
    expect(text.split("\n")).toEqual([
      expect.stringContaining("strict mode: the child process `node` was started"),
      expect.stringContaining("strict mode: the child process `node` was started"),
      expect.stringContaining("strict mode: a worker thread was started"),
    ]);
    expect(session.takeViolations()).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(since(from)).toEqual([]);
    session.close();
  });

  test("allowProcesses checks every program of a shell command line, not its first word", async () => {
    const from = upstream.events.length;
    const session = createSession({
      tools: {},
      strict: true,
      allowProcesses: ["node"],
      agent: async () =>
        [
          await settle(() => takenAtLoad.shell(`node --version; curl -s ${upstream.url}/escaped`)),
          await settle(() => takenAtLoad.shell(`node -e "process.exit(0)" && echo $(curl -s ${upstream.url}/escaped)`)),
          await settle(() => takenAtLoad.shell(`node --version | sh -c 'wget -q -O- ${upstream.url}/escaped'`)),
          await settle(() => takenAtLoad.shell("node --version")),
        ].join("\n"),
    });
    expect((await session.send("go")).text.split("\n")).toEqual([
      expect.stringContaining("(it runs node, curl;"),
      expect.stringContaining("(it runs node, echo, curl;"),
      expect.stringContaining("(it runs node, sh, wget;"),
      "ran",
    ]);
    const violations = session.takeViolations();
    expect(violations).toHaveLength(3);
    expect(violations[0]).toContain('createSession({ allowProcesses: ["node","curl"] })');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(since(from)).toEqual([]);
    session.close();
  });

  test("a tools record that is a Proxy (a lazy registry) is refused at setup, with what to pass instead", () => {
    const registry: Record<string, (input: unknown) => string> = { send_report: () => "sent for real" };
    const lazy = new Proxy({} as Record<string, unknown>, {
      get: (_, key) => registry[key as string],
      ownKeys: () => Object.keys(registry),
      getOwnPropertyDescriptor: (_, key) => ({ configurable: true, enumerable: true, value: registry[key as string] }),
    });
    const make = () => createSession({ tools: lazy, strict: true, agent: () => "" });
    expect(make).toThrow(StubConfigError);
    expect(make).toThrow("`tools` is a Proxy (a lazy registry?)");
    expect(make).toThrow("give the agent that same record");
  });

  test("MCP: every method that issues tools/call is caught at the client, with a real stdio server whose tool fetches", async () => {
    const from = upstream.events.length;
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [join(import.meta.dirname, "../fixtures/mcp-fetch-server.mjs")] }),
    );
    const tools = await mcpTools(client, { server: "reporter" });
    const params = { name: "send_report", arguments: { url: `${upstream.url}/escaped` } };
    const session = createSession({
      tools,
      strict: true,
      agent: async () => {
        const { CallToolResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
        const direct = await settle(() => client.request({ method: "tools/call", params }, CallToolResultSchema));
        const streamed: string[] = [];
        for await (const message of client.experimental.tasks.callToolStream(params)) streamed.push(message.type);
        const called = await client.callTool(params);
        return JSON.stringify({ direct, streamed, called: called.isError });
      },
    });
    const turn = await session.send("go");
    expect(JSON.parse(turn.text)).toEqual({ direct: "ran", streamed: ["result"], called: true });
    expect(turn.toolCalls.map((call) => call.qualifiedName)).toEqual([
      "reporter/send_report",
      "reporter/send_report",
      "reporter/send_report",
    ]);
    expect(session.takeViolations()).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(since(from)).toEqual([]);
    session.close();
    await client.close();
  }, 30_000);

  test("the own-ports allowance checks the address too: the same port on another loopback address is another process's", async () => {
    const port = elsewhere.ports.raw;
    const mine = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => mine.listen(port, "127.0.0.1", resolve));
    const from = elsewhere.events.length;
    const session = createSession({
      tools: {},
      strict: true,
      agent: () =>
        settle(
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = connectNet({ host: "127.0.0.2", port }, () => socket.end("hello", () => resolve()));
              socket.on("error", reject);
            }),
        ),
    });
    expect((await session.send("go")).text).toContain(`refused: [tooltrace] strict mode: a TCP connection to 127.0.0.2:${port} was opened`);
    expect(session.takeViolations()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(elsewhere.events.slice(from)).toEqual([]);
    session.close();
    mine.close();
  });
});
