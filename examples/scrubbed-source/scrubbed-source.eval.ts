import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession, type MockModelRequest, type MockModelResponse, scrubber } from "tooltrace";
import { claudeCode } from "tooltrace/cli";
import { createLlmAnswer, type LoopbackServer, serveOnLoopback } from "tooltrace/wire";

const SOURCE = "INC-4821";

/**
 * The real model stands behind a fake Anthropic-compatible provider on 127.0.0.1 that keeps every request
 * it receives: its model searches, then answers from what the search returned.
 */
let provider: LoopbackServer;
const received: string[] = [];
beforeAll(async () => {
  const model = (request: MockModelRequest): MockModelResponse | string => {
    if (!request.tools.some((tool) => tool.name === "mcp__search__search")) return "ok";
    const result = request.toolResults.at(-1);
    if (result === undefined) return { toolCalls: [{ name: "mcp__search__search", input: { query: "canary flag" } }] };
    return `Found: ${JSON.stringify(result.output)}`;
  };
  const answer = createLlmAnswer({ respond: model });
  provider = await serveOnLoopback(async (request) => {
    received.push(await request.clone().text());
    return answer.answer(request);
  });
});
afterAll(() => provider.close());

// e2eval's case: the agent works with its real tools against the real model, and the eval's source is
// scrubbed out of every tool result before the model sees it.
describe("Claude Code with its real MCP search, the real model, and the source scrubbed", { timeout: 60_000 }, () => {
  test("the provider receives every request and never the source; the agent answers from what is left", async () => {
    const mcp = { mcpServers: { search: { command: process.execPath, args: [join(import.meta.dirname, "search-server.mjs")] } } };
    const session = createSession({
      agent: claudeCode({
        allowedTools: ["mcp__search__search"],
        args: ["--mcp-config", JSON.stringify(mcp), "--strict-mcp-config"],
      }),
      upstream: provider.url,
      middleware: [scrubber({ remove: [SOURCE] })],
    });
    const turn = await session.send("Which flag was involved in the canary incident?");
    expect(turn.error).toBeUndefined();
    expect(turn).toHaveCalledTool("mcp__search__search", { input: { query: "canary flag" } });
    expect(turn).toHaveResult("scrubber", { removed: 1 });
    expect(received.length).toBeGreaterThanOrEqual(2);
    for (const body of received) expect(body).not.toContain(SOURCE);
    expect(received.at(-1)).toContain("INC-3977");
    expect(turn.text).toContain("INC-3977");
    expect(turn.text).not.toContain(SOURCE);
  });
});
