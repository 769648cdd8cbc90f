import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, test } from "vitest";
import { createSession, type McpServeFile, mcpServer } from "tooltrace";

const bin = join(import.meta.dirname, "../../dist/bin.js");
const folder = mkdtempSync(join(tmpdir(), "tooltrace-mcp-serve-"));
const served: McpServeFile = {
  tools: [
    {
      name: "get_weather",
      description: "The weather in a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
    { name: "send_email", inputSchema: { type: "object", properties: { to: { type: "string" } } } },
  ],
  stubs: [
    { id: "paris", tool: "get_weather", match: { city: { const: "Paris" } }, outcome: { response: { tempC: 21 } } },
    { id: "atlantis", tool: "get_weather", match: { city: { const: "Atlantis" } }, outcome: { throw: { message: "no such city" } } },
  ],
};
const file = join(folder, "weather.json");
writeFileSync(file, JSON.stringify(served));

const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

/** The same checks for any transport: the tools listed, a rule's answer, a rule's throw, a miss, an unknown tool. */
async function exercise(client: Client) {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["get_weather", "send_email"]);
  expect(tools[0]?.inputSchema).toEqual(served.tools[0]?.inputSchema);
  const paris = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
  expect(paris.structuredContent).toEqual({ tempC: 21 });
  expect(paris.content).toEqual([{ type: "text", text: '{"tempC":21}' }]);
  const atlantis = await client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
  expect(atlantis).toMatchObject({ isError: true, content: [{ type: "text", text: "no such city" }] });
  await expect(client.callTool({ name: "get_weather", arguments: { city: "Berlin" } })).rejects.toThrow(
    /no stub rule matched get_weather\(\{"city":"Berlin"\}\): .*"paris"/,
  );
  await expect(client.callTool({ name: "send_email", arguments: { to: "a@b.c" } })).rejects.toThrow(/no rule names send_email/);
  await expect(client.callTool({ name: "get_wether", arguments: {} })).rejects.toThrow(
    /no tool "get_wether" on this server; did you mean "get_weather"\?/,
  );
}

describe("npx tooltrace mcp serve: stub rules as an MCP server, closed-world", { timeout: 60_000 }, () => {
  test("over stdio, as an MCP host starts it, with the MCP SDK's client", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "serve", file], stderr: "pipe" }));
    await exercise(client);
  });

  test("over streamable HTTP on 127.0.0.1, its URL printed", async () => {
    const child = spawn(process.execPath, [bin, "mcp", "serve", file, "--http"], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: "test", version: "1.0.0" });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await exercise(client);
    } finally {
      child.kill();
    }
  });

  test("a faulty file is refused with its pointer, before anything is served", async () => {
    const bad = join(folder, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({ tools: [{ name: "get_weather" }], stubs: [{ id: "x", tool: "get_wether", outcome: { response: 1 } }] }),
    );
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, "mcp", "serve", bad], { stdio: ["ignore", "ignore", "pipe"] });
      let text = "";
      child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      child.once("exit", (exit) => resolve({ code: exit, stderr: text }));
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /MCP server file \S+bad\.json, stub rule "x" at \/tool: the file lists no tool "get_wether"\.\n {2}Fix: did you mean "get_weather"\?/,
    );
  });
});

describe("mcpServer(): a session's stub rules served to an MCP client in the test", { timeout: 60_000 }, () => {
  test("over HTTP and over stdio, every call goes through the session's chain and is in its trace", async () => {
    const mcp = await mcpServer({ tools: served.tools });
    try {
      const agent = async () => {
        const http = new Client({ name: "agent", version: "1.0.0" });
        await http.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
        const stdio = new Client({ name: "agent", version: "1.0.0" });
        await stdio.connect(
          new StdioClientTransport({ command: mcp.command, args: [...mcp.args], env: { ...mcp.env, PATH: process.env.PATH ?? "" } }),
        );
        const paris = await http.callTool({ name: "get_weather", arguments: { city: "Paris" } });
        const again = await stdio.callTool({ name: "get_weather", arguments: { city: "Paris" } });
        const oslo = await stdio.callTool({ name: "get_weather", arguments: { city: "Oslo" } }).catch((error: Error) => error.message);
        await Promise.all([http.close(), stdio.close()]);
        return JSON.stringify([paris.structuredContent, again.structuredContent, oslo]);
      };
      const session = createSession({ agent, stubs: served.stubs, mcp });
      const turn = await session.send("weather?");
      expect(JSON.parse(turn.text)).toEqual([
        { tempC: 21 },
        { tempC: 21 },
        expect.stringMatching(/no stub rule matched get_weather\(\{"city":"Oslo"\}\): The closest rule, "paris"/),
      ]);
      expect(turn.toolCalls.map((call) => [call.tool, call.input, call.status, call.answeredBy?.kind])).toEqual([
        ["get_weather", { city: "Paris" }, "completed", "stub"],
        ["get_weather", { city: "Paris" }, "completed", "stub"],
        ["get_weather", { city: "Oslo" }, "failed", "strict"],
      ]);
      expect(session.ruleUsage().get("paris")).toBe(2);
    } finally {
      await mcp.close();
    }
  });
});

describe("the MCP server as the red team met it", { timeout: 60_000 }, () => {
  test("a body that is not JSON gets JSON-RPC's parse error, and the server stays up", async () => {
    const mcp = await mcpServer({ tools: served.tools });
    try {
      const broken = await fetch(mcp.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
      const form = await fetch(mcp.url, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
      expect(form.status).toBe(400);
      const client = new Client({ name: "after", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
      expect((await client.listTools()).tools).toHaveLength(2);
      await client.close();
    } finally {
      await mcp.close();
    }
  });

  test("one server, two sessions: each call belongs to the session whose turn runs", async () => {
    const mcp = await mcpServer({ tools: served.tools });
    try {
      const agent = async () => {
        const client = new Client({ name: "agent", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
        const result = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
        await client.close();
        return JSON.stringify(result.structuredContent);
      };
      const first = createSession({
        name: "first",
        agent,
        mcp,
        stubs: [{ id: "one", tool: "get_weather", outcome: { response: { from: 1 } } }],
      });
      const second = createSession({
        name: "second",
        agent,
        mcp,
        stubs: [{ id: "two", tool: "get_weather", outcome: { response: { from: 2 } } }],
      });
      expect((await first.send("go")).text).toBe('{"from":1}');
      expect((await second.send("go")).text).toBe('{"from":2}');
      expect(first.toolCalls).toHaveLength(1);
      expect(second.toolCalls).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  });

  test("tool definitions are checked when the server is made; an unknown tool gets the near name", async () => {
    await expect(mcpServer({ tools: [{ name: "get weather" }] })).rejects.toThrow(/\/tools\/0\/name: each tool has a `name` of letters/);
    const mcp = await mcpServer({ tools: served.tools });
    try {
      const agent = async () => {
        const client = new Client({ name: "agent", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
        const outcome = await client.callTool({ name: "get_wether", arguments: {} }).catch((error: Error) => error.message);
        await client.close();
        return String(outcome);
      };
      const turn = await createSession({ agent, mcp }).send("go");
      expect(turn.text).toMatch(/no tool "get_wether" on this server; did you mean "get_weather"\?/);
    } finally {
      await mcp.close();
    }
  });
});
