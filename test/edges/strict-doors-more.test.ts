import { exec, execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, mcpTools, StubConfigError } from "tooltrace";
import { type CountingUpstream, startCountingUpstream } from "../fixtures/counting-process.js";

// More attacks that got past strict mode, each against a counting upstream in a process of its own: what
// reaches it printed a line, so an empty list of lines is what nothing escaped means.
let upstream: CountingUpstream;
beforeAll(async () => {
  upstream = await startCountingUpstream();
}, 30_000);
afterAll(() => upstream.stop());

const since = (from: number) => upstream.events.slice(from).filter((line) => !line.startsWith("TCP"));
/** The upstream's lines since `from`, once one came or `ms` passed (its lines come over a pipe, and late). */
const linesAfter = async (from: number, ms = 500) => {
  for (let waited = 0; since(from).length === 0 && waited < ms; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return since(from);
};
const fetchUpstream = (path: string) => `fetch('${upstream.url}${path}').then((r) => r.text())`;
const settle = <T>(work: () => T | Promise<T>) =>
  Promise.resolve()
    .then(work)
    .then(
      () => "ran",
      (error: Error) => `refused: ${error.message.split("\n")[0]}`,
    );
/** `child_process.exec`: the line runs under /bin/sh (dash here). */
const shell = (line: string) =>
  new Promise<string>((resolve, reject) => exec(line, (error, stdout) => (error ? reject(error) : resolve(stdout))));

describe("a shell line's programs are read as /bin/sh reads them", () => {
  /** A strict turn allowing only git, whose agent runs `line`; what came of it, its violations, and what reached the upstream. */
  const runAllowingGit = async (line: string) => {
    const from = upstream.events.length;
    const session = createSession({ tools: {}, strict: true, allowProcesses: ["git"], agent: () => settle(() => shell(line)) });
    const text = (await session.send("go")).text;
    const violations = session.takeViolations();
    session.close();
    return { text, violations, reached: await linesAfter(from) };
  };

  // `&>` is bash's "both streams to a file", but dash reads `&` (run git in the background) then `>/dev/null node …`.
  test("`git --version &>/dev/null node -e …` runs node under dash: refused when only git is allowed", async () => {
    const result = await runAllowingGit(`git --version &>/dev/null node -e "${fetchUpstream("/amp-greater")}"`);
    expect(result.reached).toEqual([]);
    expect(result.text).toMatch(/^refused: \[tooltrace\] strict mode: /);
    expect(result.violations).toEqual([expect.stringMatching(/it runs [^;]*\bnode\b|allowProcesses: true/)]);
  });

  // An escaped `\>` is a plain word, so the `&` after it sends git to the background and node runs next.
  test("`git --version \\>& node -e …` runs node: an escaped `>` does not make the `&` a redirection", async () => {
    const result = await runAllowingGit(`git --version \\>& node -e "${fetchUpstream("/escaped-greater")}"`);
    expect(result.reached).toEqual([]);
    expect(result.text).toMatch(/^refused: \[tooltrace\] strict mode: /);
    expect(result.violations).toEqual([expect.stringMatching(/it runs [^;]*\bnode\b|allowProcesses: true/)]);
  });

  // A guard (holds today): a plain background `&`, and `>&` as a real redirection before one.
  test.each([
    ["a plain `&`", "git --version & node -e", "/background"],
    ["`2>&1` then `&`", "git --version 2>&1 & node -e", "/dup-then-background"],
    ["`>&2&`", "git --version >&2& node -e", "/dup-background"],
  ])("%s before node is refused when only git is allowed", async (_, start, path) => {
    const result = await runAllowingGit(`${start} "${fetchUpstream(path)}"`);
    expect(result.reached).toEqual([]);
    expect(result.text).toContain("(it runs git, node;");
    expect(result.violations).toHaveLength(1);
  });
});

// A tools record whose prototype is a Proxy: no own tools to catch, and every read of a tool goes to the trap.
test("a tools record with a Proxy in its prototype chain: refused at setup, or at least its real tool never runs", async () => {
  let realRuns = 0;
  const registry = new Proxy({} as Record<string, unknown>, {
    get: (_, key) => (key === "send_report" ? () => `sent for real (${++realRuns})` : undefined),
  });
  const tools = Object.create(registry) as Record<string, (input: unknown) => string>;
  let refusedAtSetup: unknown;
  let session: ReturnType<typeof createSession> | undefined;
  try {
    session = createSession({ tools, strict: true, agent: () => settle(() => tools.send_report?.({ to: "boss" })) });
  } catch (error) {
    refusedAtSetup = error;
  }
  let violations: string[] = [];
  if (session !== undefined) {
    await session.send("go");
    violations = session.takeViolations();
    session.close();
  }
  expect(realRuns).toBe(0);
  if (refusedAtSetup !== undefined) {
    expect(refusedAtSetup).toBeInstanceOf(StubConfigError);
    expect(String((refusedAtSetup as Error).message)).toContain("Proxy");
  } else expect(violations).toHaveLength(1);
});

describe("MCP: a tools/call that skips the client's own `request`", () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [join(import.meta.dirname, "../fixtures/mcp-fetch-server.mjs")] }),
    );
  }, 30_000);
  afterAll(() => client.close());

  const strictOver = async (agent: (params: { name: string; arguments: { url: string } }) => Promise<unknown>, path: string) => {
    const from = upstream.events.length;
    const params = { name: "send_report", arguments: { url: `${upstream.url}${path}` } };
    const session = createSession({
      tools: await mcpTools(client, { server: "reporter" }),
      strict: true,
      agent: () => settle(() => agent(params)),
    });
    await session.send("go");
    const violations = session.takeViolations();
    session.close();
    return { violations, reached: await linesAfter(from, 1000) };
  };

  // A raw JSON-RPC message written on the transport: no method of the client's is called at all.
  test("a tools/call sent with `client.transport.send(...)`: the server's tool never runs, and it is a violation", async () => {
    const result = await strictOver(
      (params) =>
        client.transport?.send({ jsonrpc: "2.0", id: 9_001, method: "tools/call", params }) ?? Promise.reject(new Error("no transport")),
      "/raw-send",
    );
    expect(result.reached).toEqual([]);
    expect(result.violations).toHaveLength(1);
  });

  // The class's `request`, not the instance's (where tooltrace catches it), called on the client.
  test("a tools/call sent through `Object.getPrototypeOf(client).request.call(client, …)`: the server's tool never runs, and it is a violation", async () => {
    const result = await strictOver(
      (params) => Object.getPrototypeOf(client).request.call(client, { method: "tools/call", params }, CallToolResultSchema),
      "/prototype-request",
    );
    expect(result.reached).toEqual([]);
    expect(result.violations).toHaveLength(1);
  });

  // The control (holds today): the same call through the instance's `request`.
  test("a tools/call through `client.request(...)` is caught: the control", async () => {
    const result = await strictOver((params) => client.request({ method: "tools/call", params }, CallToolResultSchema), "/request");
    expect(result.reached).toEqual([]);
    expect(result.violations).toHaveLength(1);
  });
});

// A plain Node script (no setup file) that takes `Worker` when it loads, before its first strict session.
test("plain Node: a Worker taken at load, before the first strict session, is refused in a strict turn", async () => {
  const from = upstream.events.length;
  const script = join(import.meta.dirname, "../fixtures/plain-node-worker.mjs");
  const { stdout } = await promisify(execFile)(process.execPath, [script, `${upstream.url}/plain-node-worker`]);
  const result = JSON.parse(stdout) as { takenAtLoad: string; current: string; violations: string[] };
  expect(await linesAfter(from)).toEqual([]);
  // The control: the module's `Worker` as it is in the turn is refused today.
  expect(result.current).toMatch(/^refused: \[tooltrace\] strict mode: a worker thread was started/);
  expect(result.takenAtLoad).toMatch(/^refused: \[tooltrace\] strict mode: a worker thread was started/);
  expect(result.violations).toHaveLength(2);
}, 30_000);
