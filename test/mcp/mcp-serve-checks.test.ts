import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, test } from "vitest";
import { createSession, type McpServeFile, mcpServer, StubConfigError } from "tooltrace";

// A call's arguments were not checked against the tool's schema (a missing required field got "no stub rule
// matched"), errors read "MCP error -32602: MCP error -32602: ...", and only tools were served.
const bin = join(import.meta.dirname, "../../dist/bin.js");
const folder = mkdtempSync(join(tmpdir(), "tooltrace-mcp-checks-"));
const served: McpServeFile = {
  tools: [
    {
      name: "get_weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
  stubs: [{ id: "any-city", tool: "get_weather", outcome: { response: { tempC: 21 } } }],
  resources: [
    { uri: "file:///docs/refunds.md", name: "refund-policy", mimeType: "text/markdown", text: "Refunds within 30 days." },
    { uri: "db://orders/schema", name: "orders-schema", json: { id: "string", total: "number" } },
  ],
  prompts: [
    {
      name: "summarize",
      description: "Summarize a topic",
      arguments: [{ name: "topic", required: true }, { name: "tone" }],
      messages: [{ role: "user", text: "Summarize {{topic}} in a {{tone}} tone." }],
    },
  ],
};
const file = join(folder, "served.json");
writeFileSync(file, JSON.stringify(served));

const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

async function stdioClient(): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  clients.push(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "serve", file], stderr: "pipe" }));
  return client;
}

/** The checks for a served file, through any client connected to it. */
async function exercise(client: Client) {
  // Arguments checked against the input schema: a tool error the model can correct, with the JSON pointer.
  expect(await client.callTool({ name: "get_weather", arguments: {} })).toEqual({
    isError: true,
    content: [
      { type: "text", text: "Input validation error: Invalid arguments for tool get_weather: /: must have required property 'city'" },
    ],
  });
  expect(await client.callTool({ name: "get_weather", arguments: { city: 7 } })).toMatchObject({
    isError: true,
    content: [{ type: "text", text: "Input validation error: Invalid arguments for tool get_weather: /city: must be string" }],
  });
  expect((await client.callTool({ name: "get_weather", arguments: { city: "Paris" } })).structuredContent).toEqual({ tempC: 21 });
  // An error is prefixed once.
  const unknown = await client.callTool({ name: "get_wether", arguments: {} }).catch((error: Error) => error);
  expect(String((unknown as Error).message)).toMatch(/^MCP error -32602: \[tooltrace\] no tool "get_wether"/);
  // Resources: listed, read (text and JSON), and an unknown URI refused with MCP's code.
  expect((await client.listResources()).resources).toEqual([
    { uri: "file:///docs/refunds.md", name: "refund-policy", mimeType: "text/markdown" },
    { uri: "db://orders/schema", name: "orders-schema", mimeType: "application/json" },
  ]);
  expect((await client.readResource({ uri: "file:///docs/refunds.md" })).contents).toEqual([
    { uri: "file:///docs/refunds.md", mimeType: "text/markdown", text: "Refunds within 30 days." },
  ]);
  const [schema] = (await client.readResource({ uri: "db://orders/schema" })).contents as { text: string }[];
  expect(JSON.parse(String(schema?.text))).toEqual({ id: "string", total: "number" });
  const missing = await client.readResource({ uri: "file:///nope" }).catch((error: Error & { code?: number }) => error);
  expect([(missing as { code?: number }).code, (missing as Error).message]).toEqual([
    -32002,
    expect.stringMatching(/^MCP error -32002: (?!MCP error)/),
  ]);
  // Prompts: listed, given with their arguments, a missing required argument refused.
  expect((await client.listPrompts()).prompts).toEqual([
    { name: "summarize", description: "Summarize a topic", arguments: [{ name: "topic", required: true }, { name: "tone" }] },
  ]);
  expect((await client.getPrompt({ name: "summarize", arguments: { topic: "refunds", tone: "friendly" } })).messages).toEqual([
    { role: "user", content: { type: "text", text: "Summarize refunds in a friendly tone." } },
  ]);
  await expect(client.getPrompt({ name: "summarize", arguments: {} })).rejects.toThrow(
    /^MCP error -32602: Invalid arguments for prompt summarize: missing required argument topic\.$/,
  );
}

describe("an MCP server that checks what it is sent, and serves resources and prompts", { timeout: 60_000 }, () => {
  test("npx tooltrace mcp serve over stdio, with the MCP SDK's client", async () => {
    await exercise(await stdioClient());
  });

  test("mcpServer() in a test: the same over stdio, and the trace keeps the reads and the prompt beside the calls", async () => {
    const mcp = await mcpServer(served as Parameters<typeof mcpServer>[0]);
    try {
      const client = new Client({ name: "test", version: "1.0.0" });
      clients.push(client);
      const session = createSession({
        agent: async () => {
          await client.connect(new StdioClientTransport({ command: mcp.command, args: [...mcp.args], env: { ...mcp.env } }));
          await exercise(client);
          return "done";
        },
        stubs: served.stubs,
        mcp,
      });
      const turn = await session.send("go");
      expect(turn.text).toBe("done");
      expect(turn.toolCalls.map((call) => call.tool).filter((name) => name.includes("/"))).toEqual([
        "resources/read",
        "resources/read",
        "prompts/get",
      ]);
      expect(turn.toolCalls.find((call) => call.tool === "prompts/get")?.input).toEqual({
        name: "summarize",
        arguments: { topic: "refunds", tone: "friendly" },
      });
    } finally {
      await mcp.close();
    }
  });

  test.each([
    [{ tools: [{ name: "t", inputSchema: { type: "object", properties: { a: { type: "nope" } } } }] }, "/tools/0/inputSchema"],
    [{ resources: [{ uri: "not a uri", name: "r", text: "" }] }, "/resources/0/uri"],
    [{ resources: [{ uri: "file:///r", name: "r" }] }, "/resources/0"],
    [{ prompts: [{ name: "p", messages: [{ role: "user", text: "Hi {{who}}" }] }] }, "/prompts/0/messages/0/text"],
  ])("a faulty definition is refused when the server is made, naming its pointer (%#)", async (file, pointer) => {
    const error = await mcpServer({ tools: [], ...file } as Parameters<typeof mcpServer>[0]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StubConfigError);
    expect((error as Error).message).toContain(pointer);
  });
});
