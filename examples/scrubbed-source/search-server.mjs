// A search service as a local stdio MCP server: its results include the thread an eval was built from
// (INC-4821), which the agent must never see.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "search", version: "1.0.0" });
server.registerTool("search", { description: "Search past incidents.", inputSchema: { query: z.string() } }, async ({ query }) => ({
  content: [
    {
      type: "text",
      text: JSON.stringify([
        { id: "INC-4821", title: `Canary rollback (${query})`, body: "Reverted enable_canary_bypass after the outage." },
        { id: "INC-3977", title: "Flag hygiene", body: "Flags named enable_* are reviewed monthly." },
      ]),
    },
  ],
}));
await server.connect(new StdioServerTransport());
