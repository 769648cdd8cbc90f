import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, mcpTools, mockModel, type ToolStub } from "tooltrace";
import { supportModel } from "../support-model.js";
import { supportBot } from "./agent.js";
import { ordersServer } from "./orders-server.js";
import { startLlmServer } from "tooltrace/msw";

// Strict sessions need tooltrace's HTTP catcher running, so that nothing they cannot see goes out.
let catcher: ReturnType<typeof startLlmServer>;
beforeAll(() => {
  catcher = startLlmServer();
});
afterAll(() => catcher.close());

/** The bot's MCP client, connected to the real orders server in memory (stdio or HTTP in production). */
async function connectedClient() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await ordersServer().connect(serverSide);
  const client = new Client({ name: "support-bot", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

async function session(stubs: ToolStub[]) {
  const client = await connectedClient();
  const bot = await supportBot(mockModel(supportModel), client);
  // The client's tools, named by server: `orders/lookup_order`, `orders/refund_order`.
  return createSession<ModelMessage>({
    tools: await mcpTools(client, { server: "orders" }),
    stubs,
    strict: true,
    agent: (message, { history }) => bot(message, history),
  });
}

describe("support bot (AI SDK, tools on an MCP server)", () => {
  test("refunds a delivered order; the MCP server's tools never run", async () => {
    const turn = await (
      await session([
        {
          id: "delivered",
          tool: "orders/lookup_order",
          match: { order_id: { const: "A17" } },
          outcome: { response: { id: "A17", status: "delivered" } },
        },
        { id: "refund", tool: "orders/refund_order", outcome: { response: { refunded: true } } },
      ])
    ).send("Please refund order #A17, it arrived broken.");
    expect(turn).toSucceed();
    expect(turn).toHaveToolOrder(["orders/lookup_order", { tool: "orders/refund_order", input: { order_id: "A17" } }]);
    expect(turn).toHaveMessageIncluding("Refunded order #A17.");
  });

  test("a failing order service comes back as an MCP error result, and nothing is refunded", async () => {
    const turn = await (
      await session([{ id: "down", tool: "orders/lookup_order", outcome: { throw: { message: "order service timed out" } } }])
    ).send("Refund #B2 please");
    expect(turn).toHaveFailedAction("orders/lookup_order", { error: "order service timed out" });
    expect(turn).not.toHaveCalledTool("orders/refund_order", { status: "any" });
    expect(turn).toHaveMessageIncluding(/could not look order #B2 up/);
  });
});
