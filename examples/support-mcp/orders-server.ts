import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** The order service's MCP server: the real one would reach the order and refund services. */
export function ordersServer(): McpServer {
  const server = new McpServer({ name: "orders", version: "1.0.0" });
  server.registerTool(
    "lookup_order",
    { description: "Look up an order by id.", inputSchema: { order_id: z.string() } },
    async ({ order_id }) => {
      throw new Error(`order service not reachable for ${order_id}`);
    },
  );
  server.registerTool(
    "refund_order",
    { description: "Refund a delivered order.", inputSchema: { order_id: z.string(), reason: z.string() } },
    async ({ order_id, reason }) => {
      throw new Error(`refund service not reachable for ${order_id} (${reason})`);
    },
  );
  return server;
}
